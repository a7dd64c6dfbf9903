"""RIS out: what the wiki writes, reference managers read as RIS and the wiki's own importer reads back as the same
works, every field it keeps as it was."""

from __future__ import annotations

import pytest

from tests.factories import make_source
from wiki.models import Source, SourceKind
from wiki.references.bibtex_export import ENTRY_TYPE_BY_KIND, dump_bibtex
from wiki.references.citation_keys import citation_keys
from wiki.references.csl import dump_csl_json
from wiki.references.draft import VENUE_FIELDS
from wiki.references.ris import parse_ris
from wiki.references.ris_export import dump_ris, ris_record
from wiki.services.source_import import ImportStatus, sources_import

pytestmark = pytest.mark.django_db

FIELDS = ("title", "short_name", "kind", "authors", "year", "venue", "url", "arxiv_id", "doi", "abstract", "notes")


def _works() -> list[Source]:
    return [
        make_source(slug="rt-paper", short_name="Tricky", title="A & B: 100% <b>not bold</b> &amp; “quoted”",
                    kind=SourceKind.PAPER, authors="Vulić, Ivan; 张三; Qwen Team of Alibaba; et al.", year=2024,
                    venue="NeurIPS & Co.", doi="10.1000/x_y-z", url="https://example.org/a_b?c=d&e=%20f",
                    abstract="First paragraph, about {x} & y.\n\nSecond paragraph.\n\nThird.",
                    notes="A note < with & marks\nand a second line.\n\nTY  - not a new record"),
        make_source(slug="rt-preprint", short_name="ReAct", title="ReAct: Synergizing Reasoning and Acting",
                    kind=SourceKind.PREPRINT, year=2023, venue="arXiv", arxiv_id="2210.03629",
                    url="https://arxiv.org/abs/2210.03629", bibtex_key="yao2023react"),
        make_source(slug="rt-bare", short_name="Bare", title="Bare Preprint", kind=SourceKind.PREPRINT, arxiv_id="2307.09999"),
        make_source(slug="rt-both", short_name="Both", title="Published and on arXiv", kind=SourceKind.PAPER,
                    arxiv_id="2307.09998", doi="10.1000/both", venue="ICML", year=2024),
        make_source(slug="rt-survey", short_name="Landscape", title="The Landscape: A Survey", kind=SourceKind.SURVEY,
                    venue="TMLR"),
        make_source(slug="rt-env", short_name="Gym", title="Gym: An Environment", kind=SourceKind.ENVIRONMENT,
                    url="https://github.com/x/gym"),
        make_source(slug="rt-named", short_name="Own Name", title="A Title Without a Colon", kind=SourceKind.BLOG,
                    url="https://example.org/post"),
        make_source(slug="rt-whole", short_name="Whole: Title", title="Whole: Title", kind=SourceKind.NOTE, year=2026),
        make_source(slug="rt-chapter", short_name="Chapter", title="A Chapter in a Book", kind=SourceKind.PAPER,
                    entry_type="inbook", venue="The Book", year=2019,
                    bibliographic={"pages": "12-15", "chapter": "3", "isbn": "978-1", "month": "Spring",
                                   "organization": "A Society", "publisher": "Springer"}),
        make_source(slug="rt-thesis", short_name="Thesis", title="面向长程任务的智能体强化学习", authors="张伟",
                    kind=SourceKind.PAPER, entry_type="phdthesis", venue="清华大学", year=2024,
                    bibliographic={"school": "清华大学", "address": "北京", "month": "6"}),
    ]


def _expected_entry_type(source: Source) -> str:
    # a work with no entry type of its own comes back with the one every export writes for its kind
    return source.entry_type or ENTRY_TYPE_BY_KIND[source.kind]


def _expected_bibliographic(source: Source) -> dict[str, str]:
    # an article's venue comes back as its journal too, as every export writes it there (BibTeX's journal, RIS's T2)
    if _expected_entry_type(source) == "article" and source.venue and not any(
            source.bibliographic.get(name) == source.venue for name in VENUE_FIELDS):
        return {"journal": source.venue, **source.bibliographic}
    return dict(source.bibliographic)


def test_every_field_the_wiki_keeps_reads_back_as_it_was() -> None:
    _works()
    sources = list(Source.objects.for_export())
    keys = citation_keys(sources)

    entries = parse_ris(dump_ris(sources))

    assert [entry.label for entry in entries] == [keys[source.pk] for source in sources]
    for source, entry in zip(sources, entries, strict=True):
        assert entry.errors == [] and entry.warnings == [] and entry.draft is not None, entry.errors
        for name in FIELDS:
            assert getattr(entry.draft, name) == getattr(source, name), (source.slug, name)
        assert entry.draft.bibliographic == _expected_bibliographic(source), source.slug
        assert entry.draft.entry_type == _expected_entry_type(source), source.slug
        assert entry.draft.bibtex_key == keys[source.pk]


def test_importing_the_export_finds_each_work_with_nothing_to_update() -> None:
    _works()
    sources = list(Source.objects.for_export())

    report = sources_import(text=dump_ris(sources))

    assert report.counts == {"created": 0, "duplicate": len(sources), "refused": 0}
    # nor the key and entry type the export wrote for a work without its own
    assert {result.source.slug: [u.name for u in result.updates]  # type: ignore[union-attr]
            for result in report.of(ImportStatus.DUPLICATE)} == {source.slug: [] for source in sources}


def test_into_an_empty_wiki_the_export_gives_back_works_that_export_the_same() -> None:
    _works()
    sources = list(Source.objects.for_export())
    before = dump_bibtex(sources), dump_csl_json(sources)
    text = dump_ris(sources)
    Source.all_objects.all().delete()

    report = sources_import(text=text)

    assert report.counts["created"] == len(sources)
    again = list(Source.objects.for_export())
    # the keys were the works' slugs, kept now as their own keys: the exports write the same keys
    assert (dump_bibtex(again), dump_csl_json(again)) == before


def test_a_record_says_in_rises_own_tags_what_it_can() -> None:
    [paper, both, thesis] = [s for s in _works() if s.slug in ("rt-paper", "rt-both", "rt-thesis")]

    record = ris_record(paper, "rt-paper")
    assert record.startswith("TY  - JOUR\nTI  - A & B: 100% <b>not bold</b> &amp; “quoted”\nST  - Tricky\n")
    assert "AU  - Vulić, Ivan\nAU  - 张三\nAU  - Qwen Team of Alibaba\nPY  - 2024\n" in record
    assert "T2  - NeurIPS & Co.\nDO  - 10.1000/x_y-z\n" in record
    # paragraphs on lines of their own; a line that reads as a tag set in by a space; notes as Zotero's HTML
    assert "AB  - First paragraph, about {x} & y.\n\nSecond paragraph.\n\nThird.\n" in record
    assert "N1  - <p>A note &lt; with &amp; marks\nand a second line.</p>\n<p>TY  - not a new record</p>\n" in record
    # the list goes on past its names, which RIS has no author for: said as Better BibTeX's author field; the
    # venue is the journal, said once
    assert record.endswith("M2  - tex.author= Vulić, Ivan and 张三 and {Qwen Team of Alibaba} and others\n"
                           "ID  - rt-paper\nER  - \n")

    assert "AN  - arXiv:2307.09998\n" in ris_record(both, "rt-both") and "DO  - 10.1000/both" in ris_record(both, "rt-both")
    written = ris_record(thesis, "rt-thesis")
    assert "TY  - THES\n" in written and "PB  - 清华大学\n" in written and "M3  - PhD thesis\n" in written
    assert "PY  - 2024\nDA  - 2024/06//\n" in written and "CY  - 北京\n" in written


def test_what_ris_has_no_tag_for_goes_in_zoteros_extra() -> None:
    chapter = next(s for s in _works() if s.slug == "rt-chapter")

    record = ris_record(chapter, "chapter")

    assert "TY  - CHAP\n" in record and "SP  - 12\nEP  - 15\n" in record and "PB  - Springer\n" in record
    assert ("M2  - tex.entrytype: inbook\ntex.pages: 12-15\ntex.chapter: 3\ntex.isbn: 978-1\ntex.month: Spring\n"
            "tex.organization: A Society\n") in record
    environment = next(s for s in Source.objects.all() if s.slug == "rt-env")
    assert "M2  - tex.entrysubtype: environment\n" in ris_record(environment, "gym")


def test_a_zotero_record_with_paragraphs_over_several_lines_keeps_them() -> None:
    text = ("TY  - JOUR\nTI  - A Long\n  Title\nAB  - The first paragraph\nruns over two lines.\n\nThe second.\n"
            "N1  - <p>A note</p>\nN1  - <p>Another note</p>\nST  - Long\nER  - \n")

    [entry] = parse_ris(text)

    assert entry.draft is not None
    assert (entry.draft.title, entry.draft.short_name) == ("A Long Title", "Long")
    assert entry.draft.abstract == "The first paragraph runs over two lines.\n\nThe second."
    assert entry.draft.notes == "A note\n\nAnother note"
