"""BibTeX as hostile or careless files write it: macros, crossref, URLs; each entry read, or refused with its reason."""

from __future__ import annotations

import time

import pytest
from django.utils import translation

from wiki.models import Source
from wiki.references.bibtex import parse_bibtex
from wiki.references.bibtex_macros import MAX_EXPANDED_CHARS
from wiki.references.errors import ReferencesRefused
from wiki.references.formats import MAX_IMPORT_BYTES
from wiki.services.source_import import ImportStatus, sources_import


def _doubling(levels: int, seed: str, field: str = "title") -> str:
    """``@string{m1 = m0 # m0}`` and so on: each level doubles the text, ``levels`` lines make 2**levels copies."""
    strings = "".join(f"@string{{m{level} = m{level - 1} # m{level - 1}}}\n" for level in range(1, levels + 1))
    return f'@string{{m0 = "{seed}"}}\n{strings}@misc{{big, {field} = m{levels}}}\n@misc{{small, title = {{Small}}}}\n'


@pytest.mark.parametrize(("levels", "seed", "field"), [(16, r"{\"o}", "title"), (30, "x", "title"), (16, r"{\"o}", "note")])
def test_a_macro_doubled_past_any_fields_limit_refuses_its_entry_without_being_built(
    db: None, levels: int, seed: str, field: str,
) -> None:
    started = time.perf_counter()
    report = sources_import(text=_doubling(levels, seed, field))

    assert time.perf_counter() - started < 5  # 18 s and a gigabyte when the macros were built
    [refused] = report.of(ImportStatus.REFUSED)
    length = len(seed) * 2**levels
    assert refused.label == "big" and f"{field} is longer than" in refused.message and f"{length:,}" in refused.message
    assert [r.label for r in report.of(ImportStatus.CREATED)] == ["small"]
    assert not Source.objects.filter(bibtex_key="big").exists()


def test_a_macro_no_field_reads_is_never_expanded() -> None:
    entries = parse_bibtex(_doubling(40, "x", field="keywords").replace("title = {Small}", "title = {Small}, keywords = m40"))

    assert [e.errors for e in entries] == [["no title"], []]


def test_a_value_far_over_its_fields_limit_is_refused_before_its_latex_is_decoded(monkeypatch: pytest.MonkeyPatch) -> None:
    from wiki.references import bibtex, latex

    decoded: list[int] = []

    def decoding(value: str, **kwargs: bool) -> str:
        decoded.append(len(value))
        return latex.latex_to_text(value, **kwargs)

    monkeypatch.setattr(bibtex, "latex_to_text", decoding)
    [entry] = parse_bibtex("@misc{long, title = {" + r"{\"o}" * 20_000 + "}}")

    # decoding it would take some 5 s: the value is never decoded
    assert decoded == [] or max(decoded) < 10_000
    assert entry.errors == ["title is longer than 500 characters (it has 100,000 as written)"]


def test_a_title_written_in_accents_within_its_limit_is_decoded() -> None:
    [entry] = parse_bibtex("@misc{umlauts, title = {" + r"{\"o}" * 500 + "}}")

    assert entry.errors == [] and entry.draft is not None and entry.draft.title == "ö" * 500


def test_a_link_in_a_title_keeps_its_text_apart_from_its_address() -> None:
    [entry] = parse_bibtex(r"@misc{linked, title = {Agents, see \href{https://agents.example}{the project page}}, year = 2025}")

    assert entry.errors == [] and entry.draft is not None
    assert entry.draft.title == "Agents, see the project page <https://agents.example>"


def test_macros_expanding_to_more_than_a_file_may_hold_refuse_the_file(db: None) -> None:
    text = '@string{a = "' + "x" * 200_000 + '"}\n' + "".join(f"@misc{{k{n}, title = {{T{n}}}, note = a}}\n" for n in range(30))

    with pytest.raises(ReferencesRefused) as refused:
        sources_import(text=text)

    assert refused.value.code == "too_large"
    assert MAX_EXPANDED_CHARS == MAX_IMPORT_BYTES
    assert not Source.objects.exists()


def test_an_undefined_macro_refuses_its_entry_naming_it(db: None) -> None:
    text = ("@string{known = {Known Venue}}\n@article{bare, title = {Bare}, journal = undefinedmacro}\n"
            "@article{defined, title = {Defined}, journal = known, month = sept}\n")

    report = sources_import(text=text)

    [refused] = report.of(ImportStatus.REFUSED)
    assert refused.label == "bare" and refused.line == 2
    assert refused.message == "journal uses “undefinedmacro”, which no @string defines: brace it ({undefinedmacro}) if it is text"
    assert Source.objects.get().venue == "Known Venue"


def test_a_value_left_without_its_comma_refuses_its_entry_instead_of_taking_in_the_next_field(db: None) -> None:
    text = ("@article{missingcomma2025, title = {Missing Comma Between Fields}\n  author = {Doe, Jane}, year = {2025}}\n"
            "@article{bareyear, title = {Bare Year}, year = 2025\n  author = {Roe, Rich}}\n"
            "@string{venue = {Known} Venue}\n@article{usesvenue, title = {Uses Venue}, journal = venue}\n"
            "@article{fine, title = {Fine {Braces} and a \\} escaped}, author = \"Doe, {J}ane\", year = 2024}\n")

    report = sources_import(text=text)

    assert [(r.label, r.message) for r in report.of(ImportStatus.REFUSED)] == [
        ("missingcomma2025", "title goes on after its value closes (“author = {Doe, Jane}”): is a comma missing before it?"),
        ("bareyear", "year goes on after its value closes (“author = {Roe, Rich}”): is a comma missing before it?"),
        ("usesvenue", "journal uses “venue”, whose @string goes on after its value closes: is a comma missing, or a "
                      "brace or quote not closed?"),
    ]
    assert list(Source.objects.values_list("title", "authors")) == [("Fine Braces and a } escaped", "Doe, Jane")]


def test_what_the_parser_says_of_an_unreadable_entry_is_said_in_chinese(db: None) -> None:
    text = "@article{noequals2025, title {x}}\n@article{open, title = {Unclosed\n@article{next, title = {Next}}\n"

    with translation.override("zh-hans"):
        report = sources_import(text=text)

    assert [(r.label, r.message) for r in report.of(ImportStatus.REFUSED)] == [
        ("noequals2025", "字段名后面没有 =：先出现的是“{”"),
        ("open", "这个条目到第 3 行下一个条目（@article）开始时仍未闭合：缺少结尾的 }，或其中有 { 或 \" 没有闭合"),
    ]


def test_a_thesis_takes_its_school_as_its_venue() -> None:
    [entry] = parse_bibtex('@phdthesis{m21, title = {A Thesis}, school = {Universit{\\"a}t T{\\"u}bingen}, year = 2021}')

    assert entry.draft is not None and entry.draft.venue == "Universität Tübingen"


def test_a_macro_built_from_an_undefined_one_names_it_where_it_is_used() -> None:
    [entry] = parse_bibtex("@string{conf = missing # { 2024}}\n@inproceedings{c, title = {C}, booktitle = conf}\n")

    assert entry.draft is None and entry.errors == [
        "booktitle uses “missing”, which no @string defines: brace it ({missing}) if it is text"]


@pytest.mark.parametrize(("written", "stored"), [
    ("{https://example.org/{id}/x}", "https://example.org/%7Bid%7D/x"),
    ("{ftp://example.org/file.pdf}", "ftp://example.org/file.pdf"),
    (r"{\url{https://example.org/a\_b}}", "https://example.org/a_b"),
    ('"https://example.org/p?q=1#top"', "https://example.org/p?q=1#top"),
])
def test_a_url_is_kept_whole_and_stored_percent_encoded(db: None, written: str, stored: str) -> None:
    report = sources_import(text=f"@misc{{u, title = {{Linked}}, url = {written}}}")

    assert report.counts["created"] == 1, report.results
    assert Source.objects.get().url == stored


@pytest.mark.parametrize(("written", "reason"), [
    ("{https://example.org/a b/c.pdf}", "the URL “https://example.org/a b/c.pdf” holds a space: write it as %20, as a URL has none"),
    ("{www.example.org/page}", "the URL “www.example.org/page” has no scheme: write it whole, with https://"),
])
def test_a_url_the_wiki_cannot_store_refuses_its_entry_naming_it(db: None, written: str, reason: str) -> None:
    report = sources_import(text=f"@misc{{u, title = {{Linked}}, url = {written}}}\n@misc{{v, title = {{Other}}}}")

    [refused] = report.of(ImportStatus.REFUSED)
    assert (refused.label, refused.message) == ("u", reason)
    assert list(Source.objects.values_list("title", flat=True)) == ["Other"]


def test_csl_json_refuses_a_url_with_a_space_with_the_same_reason(db: None) -> None:
    report = sources_import(text='[{"id": "u", "title": "Linked", "URL": "https://example.org/a b/c.pdf"}]')

    assert report.of(ImportStatus.REFUSED)[0].message == (
        "the URL “https://example.org/a b/c.pdf” holds a space: write it as %20, as a URL has none")


PROCEEDINGS = r"""@inproceedings{child1,
  title = {A Paper in the Volume},
  author = {Doe, Jane},
  crossref = {icml2024},
}
@inproceedings{child2,
  title = {Another Paper},
  author = {Roe, Rick},
  year = {2023},
  crossref = {ICML2024},
}
@proceedings{icml2024,
  title = {Proceedings of the 41st International Conference on Machine Learning},
  year = {2024},
  publisher = {PMLR},
  doi = {10.5555/icml2024},
  url = {https://proceedings.mlr.press/v235/},
}
"""


def test_a_crossref_child_takes_its_year_and_venue_from_the_parent_but_not_its_identifiers() -> None:
    child1, child2, parent = (entry.draft for entry in parse_bibtex(PROCEEDINGS))

    assert child1 is not None and child2 is not None and parent is not None
    volume = "Proceedings of the 41st International Conference on Machine Learning"
    assert (child1.year, child1.venue, child1.doi, child1.url) == (2024, volume, "", "")
    assert (child2.year, child2.venue) == (2023, volume)  # its own year stays
    assert (parent.title, parent.kind, parent.doi) == (volume, "paper", "10.5555/icml2024")


def test_a_parent_named_by_one_entry_is_read_into_it_not_imported_apart(db: None) -> None:
    text = PROCEEDINGS.replace("crossref = {ICML2024},", "")

    report = sources_import(text=text)

    assert [r.label for r in report.of(ImportStatus.CREATED)] == ["child1", "child2"]
    assert Source.objects.get(bibtex_key="child1").venue.startswith("Proceedings of the 41st")
    assert not Source.objects.filter(bibtex_key="icml2024").exists()


def test_a_parent_named_by_two_entries_or_none_is_imported_as_its_kind(db: None) -> None:
    sources_import(text=PROCEEDINGS)
    sources_import(text="@proceedings{alone, title = {Standalone Workshop Proceedings}, year = {2022}}")

    assert Source.objects.get(bibtex_key="icml2024").kind == "paper"
    assert Source.objects.get(bibtex_key="alone").kind == "paper"
    assert Source.objects.count() == 4


def test_a_crossref_naming_no_entry_refuses_an_entry_that_lacks_what_it_would_give() -> None:
    [entry] = parse_bibtex("@inproceedings{orphan, title = {Orphan}, crossref = {nowhere}}")

    assert entry.draft is None and entry.errors == [
        "crossref “nowhere” names no other entry of the file, and the entry gives neither its year nor where it appeared"]


def test_a_dblp_entry_pasted_alone_is_read_without_its_proceedings() -> None:
    [entry] = parse_bibtex("""@inproceedings{DBLP:conf/nips/ShinnCGNY23,
      author = {Noah Shinn and Federico Cassano},
      title = {Reflexion: language agents with verbal reinforcement learning},
      booktitle = {Advances in Neural Information Processing Systems 36 (NeurIPS 2023)},
      year = {2023}, crossref = {DBLP:conf/nips/2023}, pages = {8634--8652}}""")

    assert entry.errors == [] and entry.draft is not None
    assert (entry.draft.year, entry.draft.venue) == (2023, "Advances in Neural Information Processing Systems 36 (NeurIPS 2023)")


def test_a_note_marked_as_a_url_is_the_address_and_a_bare_one_stays_a_note() -> None:
    marked, bare = parse_bibtex("@misc{m, title = {Marked}, note = {\\url{https://example.org/m}}}\n"
                                "@misc{b, title = {Bare}, note = {https://example.org/b}}\n")

    assert marked.draft is not None and (marked.draft.url, marked.draft.notes) == ("https://example.org/m", "")
    assert bare.draft is not None and (bare.draft.url, bare.draft.notes) == ("", "https://example.org/b")


def test_a_chinese_name_split_by_a_reference_manager_is_written_as_chinese_writes_it() -> None:
    [entry] = parse_bibtex("@article{k, title = {T}, author = {张, 伟 and 欧阳, 修文 and Zhang, Wei and Smith, Jr., John}}")

    assert entry.draft is not None and entry.draft.authors == "张伟; 欧阳修文; Zhang, Wei; Smith, Jr., John"
