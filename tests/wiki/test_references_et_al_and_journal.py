"""An author list that goes on (BibTeX's ``and others``) and an article's journal, written as each format expects and
read back the same: no author called "others" in CSL-JSON or RIS, and the journal said once in RIS."""

from __future__ import annotations

import json

import pytest

from tests.factories import make_source
from wiki.models import Source
from wiki.references.bibtex import parse_bibtex
from wiki.references.bibtex_export import dump_bibtex
from wiki.references.csl import csl_item, dump_csl_json, parse_csl_json
from wiki.references.ris import parse_ris
from wiki.references.ris_export import dump_ris, ris_record
from wiki.services.source_import import sources_import

GOING_ON = "@article{lecun2015, title={Deep Learning}, author={LeCun, Yann and Bengio, Yoshua and others}, " \
           "journal={Nature}, year={2015}, volume={521}, editor={Hinton, Geoffrey and others}}"


def _work() -> Source:
    [entry] = parse_bibtex(GOING_ON)
    assert entry.draft is not None
    return Source(slug="lecun2015", **entry.draft.as_fields())


def test_a_list_that_goes_on_names_no_author_others_in_csl_json() -> None:
    work = _work()
    assert work.authors == "LeCun, Yann; Bengio, Yoshua; et al."

    item = csl_item(work)

    assert item["author"] == [{"family": "LeCun", "given": "Yann"}, {"family": "Bengio", "given": "Yoshua"}]
    assert item["editor"] == [{"family": "Hinton", "given": "Geoffrey"}]
    assert item["custom"]["wiki-et-al"] == ["author", "editor"]
    [back] = parse_csl_json(json.dumps([item]))
    assert back.draft is not None
    assert (back.draft.authors, back.draft.extra_fields["editor"]) == (work.authors, "Hinton, Geoffrey; et al.")


def test_a_list_that_goes_on_has_no_author_line_for_it_in_ris() -> None:
    work = _work()

    record = ris_record(work, "lecun2015")

    assert "AU  - LeCun, Yann\nAU  - Bengio, Yoshua\nPY  - 2015\n" in record and "et al." not in record
    assert "M2  - tex.author= LeCun, Yann and Bengio, Yoshua and others\n" in record
    [back] = parse_ris(record)
    assert back.draft is not None and back.draft.authors == work.authors


def test_bibtex_still_writes_and_others() -> None:
    assert "author = {LeCun, Yann and Bengio, Yoshua and others}" in dump_bibtex([_work()])


def test_csl_json_from_pandoc_naming_an_author_others_is_read_as_a_list_that_goes_on() -> None:
    [entry] = parse_csl_json(json.dumps([{"id": "x", "type": "article-journal", "title": "T",
                                          "author": [{"family": "Doe", "given": "Jane"}, {"literal": "others"}]}]))
    assert entry.draft is not None and entry.draft.authors == "Doe, Jane; et al."


def test_an_articles_journal_is_written_once_in_ris() -> None:
    record = ris_record(_work(), "lecun2015")

    assert "T2  - Nature\n" in record and "tex.journal" not in record


@pytest.mark.parametrize(("text", "journal"), [
    ("TY  - JOUR\nTI  - Deep Learning\nT2  - Nature\nER  - \n", "Nature"),
    ("TY  - JOUR\nTI  - Deep Learning\nJO  - Nature\nER  - \n", "Nature"),
    ("TY  - JOUR\nTI  - Deep Learning\nJF  - Nature\nER  - \n", "Nature"),
    ("TY  - CONF\nTI  - Deep Learning\nT2  - NeurIPS\nER  - \n", None),
])
def test_a_ris_articles_journal_is_read_as_its_journal(text: str, journal: str | None) -> None:
    [entry] = parse_ris(text)
    assert entry.draft is not None and entry.draft.bibliographic.get("journal") == journal


@pytest.mark.parametrize(("csl_type", "journal"), [("article-journal", "Nature"), ("paper-conference", None)])
def test_a_csl_journal_articles_container_is_read_as_its_journal(csl_type: str, journal: str | None) -> None:
    [entry] = parse_csl_json(json.dumps([{"id": "x", "type": csl_type, "title": "T", "container-title": "Nature"}]))
    assert entry.draft is not None and entry.draft.bibliographic.get("journal") == journal


@pytest.mark.django_db
@pytest.mark.parametrize("dump", [dump_csl_json, dump_ris])
def test_an_imported_article_whose_authors_go_on_comes_back_unchanged(dump: object) -> None:
    sources_import(text=GOING_ON)
    make_source(slug="other", title="Another Article", authors="Doe, Jane; et al.", entry_type="article",
                venue="Science", bibliographic={"journal": "Science", "pages": "1--2"})
    works = list(Source.objects.for_export())
    text = dump(works)  # type: ignore[operator]

    report = sources_import(text=text)

    assert report.counts == {"created": 0, "duplicate": 2, "refused": 0}
    assert [(result.label, result.updates) for result in report.results if result.updates] == []
    parsed = (parse_csl_json if dump is dump_csl_json else parse_ris)(text)
    by_key = {work.bibtex_key or work.slug: work for work in works}
    for entry in parsed:
        work = by_key[entry.label]
        assert entry.draft is not None
        assert (entry.draft.authors, entry.draft.bibliographic) == (work.authors, work.bibliographic), entry.label


def test_an_author_list_of_no_name_but_et_al_comes_back_through_csl_json_and_ris() -> None:
    work = Source(slug="anon", title="Anonymous Work", authors="et al.")

    item = csl_item(work)

    assert "author" not in item and item["custom"]["wiki-et-al"] == ["author"]
    [from_csl] = parse_csl_json(json.dumps([item]))
    [from_ris] = parse_ris(ris_record(work, "anon"))
    assert from_csl.draft is not None and from_ris.draft is not None
    assert from_csl.draft.authors == from_ris.draft.authors == "et al."
