"""Imported works are named as works added by hand are: a slug even when the short name is in Chinese, a short name
no other work has, and a BibTeX key the exports can use."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.factories import make_source
from tests.wiki.web_imports import web_import
from wiki.models import Source
from wiki.models.rules import BIBTEX_KEY
from wiki.references import citation_keys as citation_keys_module
from wiki.references.bibtex_export import dump_bibtex
from wiki.references.citation_keys import citation_keys
from wiki.references.formats import ReferenceFormat
from wiki.services.source_import import ImportResult, sources_import, usable_bibtex_key
from wiki.services.sources import source_update

CHINESE_BIB = "@misc{zh, shorttitle={中文智能体}, title={Agents That Read Chinese: A Study}, year={2025}}"
CHINESE_CSL = json.dumps([{"id": "zh", "type": "article", "title": "Agents That Read Chinese: A Study",
                           "title-short": "中文智能体", "issued": {"date-parts": [[2025]]}}], ensure_ascii=False)
CHINESE_RIS = "TY  - JOUR\nTI  - 中文智能体研究\nDO  - 10.1145/3600006\nPY  - 2025\nER  - \n"


def _created(text: str, fmt: ReferenceFormat | None = None) -> Source:
    [result] = sources_import(text=text, fmt=fmt).results
    assert result.status == "created", result.message
    assert result.source is not None
    return result.source


def _one(text: str) -> ImportResult:
    [result] = sources_import(text=text).results
    return result


# Slugs (a work whose short name gives none)

def test_an_imported_bibtex_work_with_a_chinese_short_name_gets_the_slug_of_its_title(db: None) -> None:
    source = _created(CHINESE_BIB)
    assert (source.short_name, source.slug) == ("中文智能体", "agents-that-read-chinese-a-study")


def test_an_imported_csl_work_with_a_chinese_short_name_gets_the_slug_of_its_title(db: None) -> None:
    assert _created(CHINESE_CSL).slug == "agents-that-read-chinese-a-study"


def test_an_imported_ris_work_with_a_chinese_title_gets_the_slug_of_its_title_in_pinyin(db: None) -> None:
    assert _created(CHINESE_RIS).slug == "zhong-wen-zhi-neng-ti-yan-jiu"


def test_imported_works_named_only_in_chinese_get_readable_slugs_not_numbers(db: None) -> None:
    bib = ("@article{zhang2024, title={基于强化学习的网页智能体训练方法研究}, author={张三 and 李四}, journal={计算机学报},"
           " year={2024}}\n@article{li2025, shorttitle={智能体}, title={智能体：一个综述}, author={李四}, year={2025}}\n"
           "@article{wang2025, shorttitle={智能體}, title={智能體：另一個綜述}, author={王五}, year={2025}}")

    slugs = [result.source.slug for result in sources_import(text=bib).results if result.source]

    # Read whole, up to 100 characters, rather than cut within a word (方法, 研究).
    assert slugs == ["ji-yu-qiang-hua-xue-xi-de-wang-ye-zhi-neng-ti-xun-lian-fang-fa-yan-jiu", "zhi-neng-ti", "zhi-neng-ti-2"]


def test_a_long_chinese_title_is_cut_where_a_word_surely_ends_not_within_one(db: None) -> None:
    title = "基于深度强化学习的多智能体协同决策与控制方法在复杂动态环境下的应用研究以及其在智能交通系统中的实践与验证"
    # 决策与控制: cut before 与, not after "kong" of 控制 or "yan" of 研究
    assert _created(f"@phdthesis{{li2024, title={{{title}}}, author={{李雷}}, year={{2024}}}}").slug == \
        "ji-yu-shen-du-qiang-hua-xue-xi-de-duo-zhi-neng-ti-xie-tong-jue-ce"


def test_a_long_title_is_cut_at_a_word_and_a_non_breaking_hyphen_is_a_hyphen(db: None) -> None:
    long_title = ("Outcome of unrelated MLC-compatible donor transplants versus matched sibling donor transplants in "
                  "children with acute leukemia")
    assert _created(f"@article{{a, title={{{long_title}}}, year={{2001}}}}").slug == (
        "outcome-of-unrelated-mlc-compatible-donor-transplants-versus-matched-sibling-donor-transplants-in")
    nb = "Challenges of real\u2011world reinforcement learning: definitions, benchmarks and analysis"
    assert _created(f'@article{{ dulac:rl-challenges2021, title = "{nb}", year = "2021"}}').slug == (
        "challenges-of-real-world-reinforcement-learning")


def test_import_references_gives_a_chinese_named_work_the_slug_of_its_title(db: None, tmp_path: Path) -> None:
    path = tmp_path / "chinese.bib"
    path.write_text(CHINESE_BIB, encoding="utf-8")
    out = StringIO()
    call_command("import_references", str(path), stdout=out)
    assert "created 中文智能体 (agents-that-read-chinese-a-study)" in out.getvalue()
    assert Source.objects.filter(slug="agents-that-read-chinese-a-study").exists()


def test_the_upload_form_gives_a_chinese_named_work_the_slug_of_its_title(editor_client: Client) -> None:
    upload = SimpleUploadedFile("chinese.json", CHINESE_CSL.encode(), content_type="application/json")
    response = web_import(editor_client, {"file": upload})
    assert response.status_code == 200
    assert 'href="/sources/agents-that-read-chinese-a-study/"' in response.content.decode()


# Short names (one work's only)

def test_an_imported_work_whose_title_head_names_another_work_is_called_by_its_whole_title(db: None) -> None:
    make_source(short_name="Voyager", title="Voyager: a blog post on coding agents", kind="blog")
    source = _created("TY  - JOUR\nTI  - Voyager: An Open-Ended Embodied Agent\nPY  - 2023\nER  - \n")
    assert source.short_name == "Voyager: An Open-Ended Embodied Agent"
    assert Source.objects.filter(short_name="Voyager").count() == 1


def test_an_imported_entry_giving_another_works_short_name_is_refused_and_offered_again(db: None) -> None:
    holder = make_source(short_name="WebArena", title="WebArena: A Realistic Web Environment")
    entry = "@misc{other, shorttitle={ＷＥＢａｒｅｎａ}, title={Something Else Entirely}, year={2024}}"
    result = _one(entry)
    assert result.status == "refused"
    assert result.message == ("the short name “ＷＥＢａｒｅｎａ” is that of another work, “WebArena: A Realistic Web "
                              "Environment”: give this entry a short title of its own")
    assert result.raw.startswith("@misc{other")
    assert list(Source.objects.values_list("pk", flat=True)) == [holder.pk]


def test_two_entries_of_one_file_giving_one_short_name_keep_the_first(db: None) -> None:
    results = sources_import(text="@misc{a, shorttitle={Twin}, title={The First Twin Study}}\n"
                                  "@misc{b, shorttitle={twin}, title={The Second Twin Study}}").results
    assert [r.status for r in results] == ["created", "refused"]
    assert "on line 1" in results[1].message
    assert list(Source.objects.values_list("title", flat=True)) == ["The First Twin Study"]


def test_two_entries_of_one_file_with_one_title_head_get_the_head_and_the_whole_title(db: None) -> None:
    results = sources_import(text="@misc{a, title={Mirage: Seeing Things}}\n@misc{b, title={Mirage: Hearing Things}}").results
    assert [(r.status, r.source.short_name if r.source else "") for r in results] == [
        ("created", "Mirage"), ("created", "Mirage: Hearing Things")]


def test_a_title_head_yields_to_a_later_entry_whose_whole_title_it_is(db: None) -> None:
    results = sources_import(text="@misc{a, title={Survey: Agents That Learn}, year={2024}}\n"
                                  "@misc{b, title={Survey}, author={Roe, Jane}, year={2023}}").results
    assert [(r.status, r.source.short_name if r.source else r.message) for r in results] == [
        ("created", "Survey: Agents That Learn"), ("created", "Survey")]


def test_a_title_head_yields_to_a_later_short_title(db: None) -> None:
    results = sources_import(text="@misc{a, title={Mirage: Seeing Things}}\n"
                                  "@misc{b, shorttitle={Mirage}, title={A Mirage of Progress}}").results
    assert [(r.status, r.source.short_name if r.source else r.message) for r in results] == [
        ("created", "Mirage: Seeing Things"), ("created", "Mirage")]


def test_a_head_whose_whole_title_is_taken_too_is_told_apart_by_its_year(db: None) -> None:
    make_source(short_name="Survey: Agents That Learn", title="Survey: Agents That Learn", year=2020)
    results = sources_import(text="@misc{a, title={Survey: Agents That Learn}, author={Doe, Ann}, year={2024}}\n"
                                  "@misc{b, title={Survey}, year={2023}}").results
    assert [(r.status, r.source.short_name if r.source else "") for r in results] == [
        ("created", "Survey: Agents That Learn (2024)"), ("created", "Survey")]
    assert results[0].message == ("another work, “Survey: Agents That Learn”, is called “Survey: Agents That Learn”: "
                                  "this work is called “Survey: Agents That Learn (2024)”")


# Works with one title: "Artificial Intelligence" (Rich 1983) beside Russell and Norvig's, two chapters "Introduction".
RICH = "@book(Rich:83,\n\tauthor =\t{Elaine Rich},\n\tyear =\t\t{1983},\n\tpublisher =\t{McGraw-Hill},\n" \
       "\ttitle =\t\t{Artificial Intelligence}\n)\n"
INTRODUCTIONS = """@incollection{Miller2005Introduction,
  author = {Miller, Daniel}, booktitle = {Clothing as Material Culture}, date = {2005}, pages = {1--19},
  title = {Introduction}
}
@incollection{Hicks2010Introduction,
  author = {Hicks, Dan and Beaudry, Mary Carolyn}, booktitle = {The {{Oxford Handbook}} of {{Material Culture Studies}}},
  date = {2010}, pages = {1--21}, title = {Introduction}
}
@incollection{Roe2010Introduction, author = {Roe, Jane}, date = {2010}, title = {Introduction}, doi = {10.1000/roe.a}}
@incollection{Roe2010Introduction2, author = {Roe, Jane}, date = {2010}, title = {Introduction}, doi = {10.1000/roe.b}}
"""


def test_a_work_whose_title_is_another_works_short_name_is_told_apart_by_its_year_not_refused(db: None) -> None:
    make_source(short_name="Artificial Intelligence", title="Artificial Intelligence: A Modern Approach",
                authors="Russell, Stuart J; Norvig, Peter", year=2016)
    result = _one(RICH)
    assert result.status == "created", result.message
    assert result.source is not None and result.source.short_name == "Artificial Intelligence (1983)"
    assert result.message == ("another work, “Artificial Intelligence: A Modern Approach”, is called “Artificial "
                              "Intelligence”: this work is called “Artificial Intelligence (1983)”")
    assert result.possible is None  # another first author: not the same work
    assert _one(RICH).status == "duplicate"  # and found again


def test_works_of_one_title_in_a_file_are_told_apart_by_year_then_first_author_then_both(db: None) -> None:
    results = sources_import(text=INTRODUCTIONS).results
    assert [(r.status, r.source.short_name if r.source else r.message) for r in results] == [
        ("created", "Introduction"), ("created", "Introduction (2010)"), ("created", "Introduction (Roe)"),
        ("created", "Introduction (Roe, 2010)")]
    assert results[1].message == "the entry on line 1 is called “Introduction”: this work is called “Introduction (2010)”"
    assert [r.possible for r in results] == [None] * 4  # other years, first authors or DOIs: other works


def test_a_chinese_title_another_work_has_as_its_name_is_told_apart_in_full_width_brackets(db: None) -> None:
    edition = make_source(short_name="红楼梦", title="红楼梦：脂砚斋全评本", authors="曹雪芹", year=2006)
    results = sources_import(text="@book{hlm1982, title={红楼梦}, author={曹雪芹}, year={1982}}\n"
                                  "@book{hlm2006, title={红楼梦}, author={曹雪芹}, year={2006}, publisher={人民文学出版社}}").results
    assert [(r.status, r.source.short_name if r.source else r.message) for r in results] == [
        ("created", "红楼梦（1982）"), ("created", "红楼梦（曹雪芹，2006）")]
    # its title without the subtitle, by the same author in the same year: maybe the same book, for the editor to judge
    assert (results[0].possible, results[1].possible) == (None, edition)
    assert results[1].possible_reason == "its title without the subtitle"


def test_a_short_title_the_entry_gives_itself_is_still_refused_when_another_work_has_it(db: None) -> None:
    make_source(short_name="Introduction", title="Introduction", year=2005)
    result = _one("@misc{x, shorttitle={Introduction}, title={A Longer Introduction to Agents}, year={2010}}")
    assert result.status == "refused"
    assert "give this entry a short title of its own" in result.message


def test_reimporting_a_file_after_a_work_was_retitled_finds_every_entry_again(db: None) -> None:
    text = ("@article{wang2023survey, title={A Survey on Large Language Model based Autonomous Agents},\n"
            "  author={Wang, Lei and Ma, Chen and others}, journal={arXiv preprint arXiv:2308.11432}, year={2023}}\n"
            "@article{wang2024survey, title={A Survey on Large Language Model Based Autonomous Agents},\n"
            "  author={Wang, Xiaomeng and Zhou, Haoping}, journal={Frontiers of Computer Science}, year={2024},\n"
            "  doi={10.1007/s11704-024-40231-1}}\n")
    first = sources_import(text=text).results
    assert [r.status for r in first] == ["created", "created"], [r.message for r in first]
    for result in first:
        assert result.source is not None
        source_update(source=result.source, fields={"title": result.source.title + " (edited by librarian)"})
    again = sources_import(text=text).results
    assert [(r.status, r.source) for r in again] == [("duplicate", r.source) for r in first]
    assert Source.objects.count() == 2


def _queries_to_import(count: int) -> int:
    text = "\n".join(f"@misc{{k{count}-{n}, title={{Crowd: Study {count}-{n}}}}}" for n in range(count))
    with CaptureQueriesContext(connection) as queries:
        results = sources_import(text=text).results
    assert [r.status for r in results] == ["created"] * count
    return len(queries.captured_queries)


def test_checking_short_names_takes_as_many_queries_however_many_entries(db: None) -> None:
    make_source(short_name="Crowd", title="Crowd Sourcing for Agents", year=2020, authors="Roe, Jane")
    assert _queries_to_import(2) == _queries_to_import(30)
    assert Source.objects.filter(short_name="Crowd").count() == 1
    assert Source.objects.filter(short_name="Crowd: Study 30-29").exists()


# BibTeX keys (made usable, never a reason to refuse)

def test_an_imported_key_the_exports_cannot_use_is_made_usable_and_reported(db: None) -> None:
    entry = json.dumps([{"id": "Müller 2020 {draft}", "type": "article", "title": "A Study of Keys"}])
    result = _one(entry)
    assert result.status == "created"
    assert result.source is not None and result.source.bibtex_key == "Muller-2020-draft"
    assert result.message == "“Müller 2020 {draft}” cannot be a BibTeX key: the work is saved with the key “Muller-2020-draft”"
    assert "{Muller-2020-draft," in dump_bibtex([Source.objects.get()])


def test_an_imported_key_with_no_letter_to_keep_becomes_the_slug(db: None) -> None:
    result = _one("@misc{张三2023, title={Keys in Another Script}}")
    assert result.status == "created"
    assert result.source is not None
    assert Source.objects.get().bibtex_key == result.source.slug == "keys-in-another-script"
    assert "saved with the key “keys-in-another-script”" in result.message


def test_a_usable_imported_key_is_kept_and_not_reported(db: None) -> None:
    result = _one("@misc{arXiv:2307.13854, title={WebArena Again Here}}")
    assert (result.source.bibtex_key if result.source else None, result.message) == ("arXiv:2307.13854", "")


def test_usable_keys_follow_the_rule_of_the_models() -> None:
    assert usable_bibtex_key("yao2023react") == "yao2023react"
    assert usable_bibtex_key("a b\nc") == "a-b-c"
    assert usable_bibtex_key("ab\n") == "ab"
    assert usable_bibtex_key("二〇二三") == ""


# Export keys (the rule in one place)

def test_the_export_keys_use_the_bibtex_key_rule_of_the_models() -> None:
    assert citation_keys_module._KEY.pattern == BIBTEX_KEY


def test_a_key_ending_in_a_line_break_is_not_an_export_key() -> None:
    source = Source(pk=1, slug="work", bibtex_key="work2024\n")
    assert citation_keys([source]) == {1: "work"}


def test_a_chinese_name_with_a_latin_word_and_a_name_with_plus_signs_take_no_other_works_slug(db: None) -> None:
    from wiki.references.draft import SourceDraft
    from wiki.services.sources import unique_source_slug

    assert unique_source_slug(SourceDraft(short_name="基于LLM的智能体强化学习")) == "ji-yu-llm-de-zhi-neng-ti-qiang-hua-xue-xi"
    assert unique_source_slug(SourceDraft(short_name="REINFORCE++")) == "reinforce-plus-plus"
    # a Chinese short name is read in pinyin whatever Latin word its title has
    assert unique_source_slug(SourceDraft(short_name="阿里巴巴通义", title="阿里巴巴通义：基于 GRPO 的网页智能体训练")) == "a-li-ba-ba-tong-yi"
    assert unique_source_slug(SourceDraft(short_name="🙂", title="基于 GRPO 的网页智能体")) == "ji-yu-grpo-de-wang-ye-zhi-neng-ti"
    assert unique_source_slug(SourceDraft(short_name="🙂", title="Smiles: A Study")) == "smiles-a-study"
    assert unique_source_slug(SourceDraft(short_name="REINFORCE")) == "reinforce"
