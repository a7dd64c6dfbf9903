"""Adding sources from BibTeX, arXiv and DOI: each entry reported, duplicates found and never created twice."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from tests.factories import make_editor, make_source
from wiki.models import ChangeEvent, Source
from wiki.references.bibtex import parse_bibtex
from wiki.references.citation_keys import citation_keys
from wiki.references.draft import draft_from_identifier
from wiki.references.errors import ReferencesRefused
from wiki.roles import User
from wiki.services.source_import import ImportResult, ImportStatus, sources_import


def sources_import_bibtex(*, text: str, user: User | None = None) -> list[ImportResult]:
    return sources_import(text=text, user=user).results

THREE_ENTRIES = r"""
@article{ji2025tree,
  title = {Tree-{GRPO}: Tree Search for {LLM} Agent \& Reinforcement Learning},
  author = {Ji, Yuxiang and Wu, Ziyu and Chen, Li},
  year = {2025},
  eprint = {2509.21240v2},
  archivePrefix = {arXiv},
  abstract = {We train agents with GRPO over tree-structured rollouts in a web environment.}
}
@inproceedings{broken2024,
  title = {Never closed,
  author = {Nobody}

@misc{doi2024,
  title = {A Benchmark for Browsing Agents},
  doi = {https://doi.org/10.1145/3600006.ABC},
  year = {2024}
}
"""


def test_bibtex_with_several_entries_reports_each_and_keeps_the_good_ones(db: None) -> None:
    user = make_editor()
    results = sources_import_bibtex(text=THREE_ENTRIES, user=user)
    assert [r.status for r in results] == ["created", "refused", "created"]
    tree = Source.objects.get(arxiv_id="2509.21240")
    assert tree.title == "Tree-GRPO: Tree Search for LLM Agent & Reinforcement Learning"
    assert tree.short_name == "Tree-GRPO"
    assert tree.authors == "Ji, Yuxiang; Wu, Ziyu; Chen, Li"
    assert (tree.year, tree.bibtex_key, tree.kind) == (2025, "ji2025tree", "preprint")
    assert Source.objects.get(doi="10.1145/3600006.abc").year == 2024
    assert "broken2024" in results[1].label and results[1].message
    assert ChangeEvent.objects.filter(kind="source", action="imported", user=user).count() == 2


def test_importing_the_same_bibtex_twice_reports_duplicates_and_adds_nothing(db: None) -> None:
    sources_import_bibtex(text=THREE_ENTRIES)
    count = Source.objects.count()
    again = sources_import_bibtex(text=THREE_ENTRIES)
    assert [r.status for r in again] == ["duplicate", "refused", "duplicate"]
    assert again[0].source == Source.objects.get(arxiv_id="2509.21240")
    assert Source.objects.count() == count


def test_entry_with_a_bad_year_is_an_error_and_saves_nothing(db: None) -> None:
    results = sources_import_bibtex(text="@article{x, title={Some Title Here}, year={1066}}")
    assert results[0].status == "refused"
    assert "year" in results[0].message
    assert not Source.objects.filter(bibtex_key="x").exists()


def test_text_without_entries_is_refused_whole(db: None) -> None:
    with pytest.raises(ReferencesRefused) as refused:
        sources_import_bibtex(text="just words")
    assert refused.value.code == "unknown_format"


def test_a_key_used_for_two_works_in_one_paste_refuses_the_second(db: None) -> None:
    results = sources_import_bibtex(text="@misc{k, title={One Thing}}\n@misc{k, title={Other Thing}}")
    assert [r.status for r in results] == ["created", "refused"]
    assert results[1].message == "the key k on line 2 is already that of another work, the entry on line 1"
    assert parse_bibtex("@misc{k, title={One Thing}}\n@misc{k, title={Other Thing}}")[1].repeats == 1


def test_arxiv_v1_and_v2_in_bibtex_are_one_source(db: None) -> None:
    first = sources_import_bibtex(text="@misc{a, title={Alpha Paper}, eprint={2401.00001v1}, archivePrefix={arXiv}}")
    second = sources_import_bibtex(text="@misc{b, title={Alpha Paper (revised)}, eprint={2401.00001v2}, archivePrefix={arXiv}}")
    assert first[0].status == "created"
    assert second[0].status == "duplicate"
    assert "arXiv" in second[0].message


def test_identifier_drafts_normalise_new_old_and_doi_forms() -> None:
    assert draft_from_identifier("https://arxiv.org/abs/2509.21240v2").arxiv_id == "2509.21240"  # type: ignore[union-attr]
    assert draft_from_identifier("cs.AI/0601001v1").arxiv_id == "cs.AI/0601001"  # type: ignore[union-attr]
    assert draft_from_identifier("https://doi.org/10.1145/ABC").doi == "10.1145/abc"  # type: ignore[union-attr]
    assert draft_from_identifier("hello there") is None


def test_bibtex_entry_whose_title_starts_with_a_work_known_only_by_a_citation_is_that_work(db: None) -> None:
    existing = make_source(short_name="WorldSim", title="WorldSim")
    results = sources_import_bibtex(text="@misc{sim2020, title={WorldSim: Aligning Text and Embodied Environments}, year={2020}}")
    assert [(r.status, r.source) for r in results] == [("duplicate", existing)]
    assert "cited on a page as “WorldSim”" in results[0].message
    assert Source.objects.filter(short_name__iexact="worldsim").count() == 1


def test_bibtex_entry_with_a_book_sized_abstract_is_an_error_and_not_added(db: None) -> None:
    results = sources_import_bibtex(text="@article{big, title={Big Abstract Study}, abstract={" + "a" * 30_000 + "}}")
    assert [r.status for r in results] == ["refused"]
    assert "abstract is longer than 20,000" in results[0].message
    assert not Source.objects.filter(title="Big Abstract Study").exists()


def test_an_entry_s_errors_are_one_line_in_the_reader_s_language(db: None) -> None:
    entry = "@article{bad, title={Some Title Here}, year={1066}, abstract={" + "a" * 30_000 + "}}"
    with translation.override("en"):
        english = sources_import_bibtex(text=entry)[0].message
    with translation.override("zh-hans"):
        chinese = sources_import_bibtex(text=entry)[0].message
    assert re.fullmatch(r"year “1066” is not a year; the abstract is longer than 20,000 characters \(it has 30,000\)", english)
    assert re.fullmatch(r"[^；;]*1066[^；;]*；[^；;,]*20000[^；;,]*30000[^；;,]*", chinese), chinese  # no commas in Chinese
    assert not Source.objects.filter(bibtex_key="bad").exists()


def test_a_key_another_work_has_already_gets_one_of_its_own_and_the_report_says_which(db: None) -> None:
    make_source(short_name="SkillForge", title="SkillForge: Evolving Verifiable Skills", bibtex_key="skillforge")

    report = sources_import(text="@article{SkillForge, title = {Some Different Paper on Skills}, year = {2025}}\n"
                                 "@article{fresh, title = {A Fresh Paper}, year = {2025}}\n")

    [other, fresh] = report.of(ImportStatus.CREATED)
    assert other.source is not None and other.source.bibtex_key == "SkillForge-2"
    assert other.message == "the key “SkillForge” is SkillForge's already: this work is saved with the key “SkillForge-2”"
    assert fresh.source is not None and (fresh.source.bibtex_key, fresh.message) == ("fresh", "")
    keys = citation_keys(list(Source.objects.all()))
    assert sorted(keys.values()) == ["SkillForge-2", "fresh", "skillforge"]


# An entry with a macro no @string defines, no title and a year that is not one: three problems, not the first alone,
# each about a field with that field's line.
MANY_PROBLEMS = "@article{many,\n  journal = UNDEFINED,\n  year = {20x4},\n}\n"


@pytest.mark.parametrize(("language", "said"), [
    ("en", "journal uses “UNDEFINED”, which no @string defines: brace it ({UNDEFINED}) if it is text (line 2); "
           "no title; year “20x4” is not a year (line 3)"),
    ("zh-hans", "journal 用了“UNDEFINED”，但没有 @string 定义它：如果它是文字，请加上花括号（{UNDEFINED}）（第 2 行）；"
                "没有标题；年份“20x4”不是年份（第 3 行）"),
])
def test_an_entry_with_several_problems_is_refused_with_every_one(editor_client: Client, language: str, said: str) -> None:
    with translation.override(language):
        (result,) = sources_import(text=MANY_PROBLEMS).results
    assert (result.status, result.line, result.message) == ("refused", 1, said)
    preview = editor_client.post(reverse("wiki:source-create"), {"entry": MANY_PROBLEMS, "import": "1"},
                                 HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert escape(said) in preview
    assert not Source.objects.filter(bibtex_key="many").exists()


def test_a_field_too_long_to_read_is_not_said_missing_too(db: None) -> None:
    (entry,) = parse_bibtex("@misc{long, title={" + "t" * 3000 + "}, year={zz}}")
    assert entry.draft is None
    assert entry.errors == ["title is longer than 500 characters (it has 3,000 as written)", "year “zz” is not a year"]
