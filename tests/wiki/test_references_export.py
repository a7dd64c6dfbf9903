"""BibTeX, CSL-JSON and RIS out: what the wiki exports, its own importer reads back as the same works."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from bibtexparser.entrypoint import parse_string
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import make_classification, make_page, make_source
from wiki.models import Source, SourceKind
from wiki.references.bibtex import parse_bibtex
from wiki.references.bibtex_export import dump_bibtex, latex_escaped
from wiki.references.citation_keys import citation_keys
from wiki.references.csl import dump_csl_json, parse_csl_json
from wiki.references.latex import LATEX_LEFT, latex_to_text
from wiki.references.names import author_names, csl_name
from wiki.references.ris import parse_ris
from wiki.references.ris_export import dump_ris
from wiki.services.deletion import page_delete
from wiki.services.source_import import sources_import

FIELDS = ("title", "short_name", "kind", "authors", "year", "venue", "url", "arxiv_id", "doi", "abstract", "notes")
NASTY = [
    "A & B: 100% of $5 for #1 under_score {braces} ~tilde^caret \\backslash",
    "Vulić, Wołczyk and Üstün: naïve café — “quoted” – dashes -- kept --- too",
    'double "quotes" and `ticks` and \'single\'',
    "中文标题：测试 α-β GRPO <angle> |pipe|",
]


def _tricky() -> list[Source]:
    return [
        make_source(slug="tricky-paper", short_name="Tricky", title=NASTY[0], kind=SourceKind.PAPER,
                    authors="Vulić, Ivan; Wołczyk, Maciej; Üstün, Ahmet; et al.", year=2024, venue="NeurIPS & Co.",
                    doi="10.1000/x_y-z", url="https://example.org/a_b?c=d&e=%20f", abstract=NASTY[1], notes=NASTY[2]),
        make_source(slug="tricky-preprint", short_name="ReAct", title="ReAct: Synergizing Reasoning and Acting",
                    kind=SourceKind.PREPRINT, authors="Yao, Shunyu; Qwen Team of Alibaba", year=2023, venue="arXiv",
                    arxiv_id="2210.03629", url="https://arxiv.org/abs/2210.03629", bibtex_key="yao2023react"),
        make_source(slug="tricky-zh", short_name="审计", title=NASTY[3], kind=SourceKind.NOTE, year=2026),
        make_source(slug="tricky-survey", short_name="Landscape", title="The Landscape: A Survey", kind=SourceKind.SURVEY,
                    venue="TMLR", bibtex_key="yao2023react"),  # a key taken by an earlier work: its slug instead
        make_source(slug="tricky-blog", short_name="Guide", title="The ultimate guide", kind=SourceKind.BLOG,
                    url="https://example.org/guide"),
        make_source(slug="tricky-env", short_name="Gym", title="Gym: An Environment", kind=SourceKind.ENVIRONMENT,
                    arxiv_id="2401.00001", url="https://github.com/x/gym"),
        # Text that CSL rich text and TeX would read as markup, entities and ligatures.
        make_source(slug="tricky-markup", short_name="<b>Bold</b> &copy", kind=SourceKind.FRAMEWORK, notes="内部记录",
                    title="Less-than <i>italic</i> & AT&amp;T: x^2 ~ 50% {braces} $math$ \\backslash #hash &#38;",
                    venue='Proc. <span class="nocase">ACL</span> &lt;2&gt;'),
        make_source(slug="tricky-ligatures", short_name="Ligatures", kind=SourceKind.SURVEY,
                    title="A Framework -- with --- dashes and ``quotes'' ,,low'' !`inverted ?`marks", notes="Surveyed."),
        make_source(slug="tricky-persons", short_name="Persons", title="Persons", kind=SourceKind.NOTE, year=2025,
                    authors="Shuyan Zhou; Frank F. Xu; de Gaulle, Charles; Ludwig van Beethoven; Qwen Team of Alibaba; 张三"),
        # Identifiers only: no venue and no address of its own, and none made up on the way back.
        make_source(slug="tricky-bare-preprint", short_name="Bare", title="Bare Preprint", kind=SourceKind.PREPRINT,
                    arxiv_id="2307.09999"),
        make_source(slug="tricky-doi", short_name="Pub", title="Published Only", kind=SourceKind.PAPER,
                    doi="10.1000/xyz(123)#4"),
        make_source(slug="tricky-arxiv-venue", short_name="Venue", title="On arXiv", kind=SourceKind.PREPRINT,
                    arxiv_id="2307.09998", venue="arXiv"),
    ]


def test_latex_escaping_decodes_back_to_the_text() -> None:
    for text in NASTY:
        assert latex_to_text(latex_escaped(text)) == text
    assert latex_escaped("Vulić & co_") == "Vulić {\\&} co{\\_}"


def test_tex_ligatures_are_kept_apart_so_that_quotes_and_marks_come_back_as_typed() -> None:
    text = "``quotes'' ,,low'' !`inverted ?`marks -- ---"
    assert latex_escaped(text) == "`{}`quotes'{}' ,{},low'{}' !{}`inverted ?{}`marks -{}- -{}-{}-"
    assert latex_to_text("{" + latex_escaped(text) + "}") == text


def test_persons_are_written_as_bibtex_splits_them_and_organisations_braced() -> None:
    authors = ("Shuyan Zhou; Frank F. Xu; de Gaulle, Charles; Ludwig van Beethoven; Jean d'Alembert; Qwen Team of Alibaba; "
               "ByteDance Seed; Meta, Inc.; 张三; et al.")
    source = Source(slug="persons", title="Persons", authors=authors)
    [entry] = parse_bibtex(dump_bibtex([source]))
    assert ("author = {Shuyan Zhou and Frank F. Xu and de Gaulle, Charles and Ludwig van Beethoven and Jean d'Alembert "
            "and {Qwen Team of Alibaba} and ByteDance Seed and {Meta, Inc.} and 张三 and others}") in entry.raw
    assert entry.draft is not None and entry.draft.authors == authors


def test_exported_bibtex_reads_back_as_the_same_works(seed: None) -> None:
    _tricky()
    sources = list(Source.objects.for_export())
    text = dump_bibtex(sources)
    keys = citation_keys(sources)
    entries = parse_bibtex(text)
    assert [entry.errors for entry in entries] == [[] for _ in sources]
    assert [entry.label for entry in entries] == [keys[source.pk] for source in sources]
    for source, entry in zip(sources, entries, strict=True):
        assert entry.draft is not None
        # Every field as it was: no venue or address made up from an identifier.
        for name in FIELDS:
            assert getattr(entry.draft, name) == getattr(source, name), (source.slug, name)
        assert entry.draft.bibtex_key == keys[source.pk]
        if not LATEX_LEFT.search(source.title + source.authors):  # no LaTeX left that the work did not have
            assert not LATEX_LEFT.search(entry.draft.title + entry.draft.authors)


@pytest.mark.parametrize("dump", [dump_bibtex, dump_csl_json, dump_ris])
def test_importing_the_export_finds_every_work_already_there(seed: None, dump: Callable[[Iterable[Source]], str]) -> None:
    _tricky()
    count = Source.objects.count()
    report = sources_import(text=dump(Source.objects.for_export()))
    assert report.counts == {"created": 0, "duplicate": count, "refused": 0}
    # each entry found as the very work it was exported from
    keys = citation_keys(list(Source.objects.all()))
    assert {result.label: result.source.pk for result in report.results if result.source is not None} == \
        {key: pk for pk, key in keys.items()}


def test_citation_keys_are_stable_and_unique(db: None) -> None:
    first = make_source(slug="alpha", bibtex_key="smith2020")
    second = make_source(slug="beta", bibtex_key="smith2020")
    third = make_source(slug="smith2020b", bibtex_key="has space")
    fourth = make_source(slug="gamma", bibtex_key="beta")  # a key another work has as its slug
    fifth = make_source(slug="smith2020")  # a slug another work has as its key
    keys = citation_keys([fifth, fourth, third, second, first])
    assert keys == {first.pk: "smith2020", second.pk: "beta", third.pk: "smith2020b", fourth.pk: "gamma",
                    fifth.pk: f"smith2020-{fifth.pk}"}
    assert citation_keys([first, second]) == citation_keys([second, first])


def _persons(authors: str) -> list[dict[str, str]]:
    return [csl_name(name) for name in author_names(authors)]


def test_exported_csl_json_reads_back_as_the_same_works(seed: None) -> None:
    _tricky()
    sources = list(Source.objects.for_export())
    items = json.loads(dump_csl_json(sources))
    keys = citation_keys(sources)
    assert [item["id"] for item in items] == [keys[s.pk] for s in sources]
    entries = parse_csl_json(json.dumps(items))
    for source, entry in zip(sources, entries, strict=True):
        assert entry.draft is not None and entry.errors == []
        for name in FIELDS:
            if name == "authors":
                # the same people, each written back as CSL splits a name (Shuyan Zhou comes back as Zhou, Shuyan)
                assert _persons(entry.draft.authors) == _persons(source.authors), source.slug
            else:
                assert getattr(entry.draft, name) == getattr(source, name), (source.slug, name)
    by_id = {item["id"]: item for item in items}
    # The kind in CSL's custom object only where the type does not say it; markup-like text escaped, plain & kept.
    assert by_id["tricky-env"]["custom"] == {"wiki-kind": "environment"} and "custom" not in by_id["yao2023react"]
    assert by_id["tricky-markup"]["title"] == ("Less-than &lt;i&gt;italic&lt;/i&gt; & AT&amp;amp;T: x^2 ~ 50% {braces} $math$ "
                                              "\\backslash #hash &amp;#38;")
    assert by_id["tricky-zh"]["title"] == NASTY[3]
    assert "container-title" not in by_id["tricky-bare-preprint"] and "URL" not in by_id["tricky-bare-preprint"]


@pytest.mark.parametrize(("fmt", "media_type", "extension"), [
    ("bib", "application/x-bibtex", "bib"),
    ("csl", "application/vnd.citationstyles.csl+json", "json"),
    ("ris", "application/x-research-info-systems", "ris"),
])
def test_the_source_list_exports_the_whole_filtered_list(client: Client, seed: None, fmt: str, media_type: str,
                                                         extension: str) -> None:
    for n in range(120):  # more than one page of the list
        make_classification(make_source(slug=f"grpo-work-{n}", title=f"GRPO Work {n}"), mechanism="policy_gradient",
                            verdict="strict")
    url = reverse("wiki:source-list") + f"?mechanism=policy_gradient&verdict=strict&format={fmt}"
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == f"{media_type}; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="agentic-rl-sources.{extension}"'
    text = response.content.decode()
    expected = set(Source.objects.classified_as(mechanism="policy_gradient", verdict="strict").values_list("slug", flat=True))
    keys = citation_keys(list(Source.objects.filter(slug__in=expected)))
    found = ({entry.label for entry in parse_bibtex(text)} if fmt == "bib" else {entry.label for entry in parse_ris(text)}
             if fmt == "ris" else {item["id"] for item in json.loads(text)})
    assert found == set(keys.values())
    assert len(found) > 100


def test_the_source_list_offers_the_export_of_what_it_shows(client: Client, seed: None) -> None:
    html = client.get(reverse("wiki:source-list") + "?kind=paper&p=1").content.decode()
    assert 'href="?kind=paper&amp;format=bib"' in html
    assert 'href="?kind=paper&amp;format=csl"' in html
    assert 'href="?kind=paper&amp;format=ris"' in html
    assert 'href="?format=bib"' in client.get(reverse("wiki:source-list")).content.decode()


def test_an_invalid_filter_exports_nothing_and_says_why(client: Client, seed: None) -> None:
    response = client.get(reverse("wiki:source-list") + "?year=abc&format=bib")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("fmt", ["bib", "csl", "ris"])
def test_exports_take_as_many_queries_for_ten_times_the_works(client: Client, seed: None, fmt: str) -> None:
    url = reverse("wiki:source-list") + f"?format={fmt}"

    def count() -> int:
        Source.objects.filter(pk=Source.objects.first().pk).update(notes="touched")  # type: ignore[union-attr]
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    client.get(url)
    small = count()
    for n in range(400):
        make_source(title=f"Generated {n}", authors=f"Author {n}, A.", year=2020 + n % 5)
    assert count() == small


@pytest.mark.parametrize("fmt", ["bib", "csl"])
def test_exporting_the_works_cited_on_an_unknown_or_deleted_page_is_refused_naming_it(client: Client, db: None,
                                                                                      fmt: str) -> None:
    work = make_source(slug="cited-once", title="Cited Once")
    page = make_page(slug="temp-page", body=f"- a（来源：{work.title}）\n")
    page_delete(page=page, user=None, reason="test")
    for slug, message in (("temp-page", "页面“temp-page”已删除"), ("nonexistent-page", "没有页面“nonexistent-page”")):
        response = client.get(reverse("wiki:source-list") + f"?cited_on={slug}&format={fmt}", HTTP_ACCEPT_LANGUAGE="zh-hans")
        assert response.status_code == 400
        assert response["Content-Type"].startswith("text/html")
        assert message in response.content.decode()


def test_import_references_prints_every_entry_it_created(tmp_path: Path, capsys: pytest.CaptureFixture[str], db: None) -> None:
    make_source(slug="already", title="Already Here", bibtex_key="already")
    path = tmp_path / "works.bib"
    path.write_text("@article{already, title={Already Here}}\n@misc{newkey, title={Brand New: A Work}}\n", encoding="utf-8")
    call_command("import_references", "--dry-run", str(path))
    out = capsys.readouterr().out
    assert "line 2: newkey: created Brand New (brand-new)" in out
    assert "line 1: already: already in the wiki as" in out
    assert "1 created, 1 already in the wiki" in out


def _notes_venues_and_paragraphs() -> list[Source]:
    """Works whose notes, venue or abstract an importer could take for something else."""
    return [
        make_source(slug="rt-see-preprint", short_name="Published", title="Published With a Preprint", kind=SourceKind.PAPER,
                    venue="ICML", year=2024, notes="See arXiv:2301.00001 for the preprint version."),
        make_source(slug="rt-url-note", short_name="Errata", title="Errata Only", kind=SourceKind.NOTE,
                    notes="https://example.org/errata"),
        make_source(slug="rt-blog", short_name="Lil'Log", title="A Blog Post", kind=SourceKind.BLOG,
                    venue="https://lilianweng.github.io", url="https://lilianweng.github.io/posts/2024-01-01/"),
        make_source(slug="rt-blog-bare", short_name="Post", title="Another Post", kind=SourceKind.BLOG,
                    venue="https://example.org/blog"),
        make_source(slug="rt-project", short_name="Repo", title="A Repository", kind=SourceKind.PROJECT,
                    venue="https://github.com/org", url="https://github.com/org/repo"),
        make_source(slug="rt-paragraphs", short_name="Paragraphs", title="Paragraphs", kind=SourceKind.PAPER,
                    abstract="First paragraph, about {x} & y.\n\nSecond paragraph.\n\nThird.", notes="One.\n\nTwo — 2."),
    ]


@pytest.mark.parametrize("dump", [dump_bibtex, dump_csl_json, dump_ris])
def test_notes_venues_and_paragraphs_read_back_as_written_into_an_empty_wiki(
    db: None, dump: Callable[[Iterable[Source]], str],
) -> None:
    _notes_venues_and_paragraphs()
    sources = list(Source.objects.for_export())
    written = {source.slug: {name: getattr(source, name) for name in FIELDS} for source in sources}
    text = dump(sources)
    Source.all_objects.all().delete()

    report = sources_import(text=text)

    assert report.counts == {"created": len(written), "duplicate": 0, "refused": 0}, report.results
    for slug, fields in written.items():
        read = Source.objects.get(bibtex_key=slug)  # the export keys a work without a key of its own by its slug
        assert {name: getattr(read, name) for name in FIELDS} == fields, slug


@pytest.mark.parametrize(("note", "arxiv_id", "notes"), [
    ("arXiv:2210.03629 [cs]", "2210.03629", ""),
    ("arXiv preprint arXiv:2210.03629", "2210.03629", ""),
    ("See arXiv:2301.00001 for the preprint version.", "", "See arXiv:2301.00001 for the preprint version."),
])
def test_a_note_gives_an_arxiv_id_only_when_it_is_that_id_alone(note: str, arxiv_id: str, notes: str) -> None:
    [bib] = parse_bibtex(f"@misc{{n, title = {{Noted}}, note = {{{note}}}}}")
    [csl] = parse_csl_json(json.dumps([{"id": "n", "title": "Noted", "note": note}]))

    for entry in (bib, csl):
        assert entry.draft is not None
        assert (entry.draft.arxiv_id, entry.draft.notes) == (arxiv_id, notes)


ZOTERO = r"""
@inproceedings{yao2023react,
  title = {{ReAct}: Synergizing Reasoning and Acting in Language Models},
  author = {Yao, Shunyu and Zhao, Jeffrey and Yu, Dian},
  booktitle = {International Conference on Learning Representations},
  publisher = {OpenReview.net},
  year = {2023},
}
@inproceedings{back2basics,
  title = {Back to Basics: Revisiting {REINFORCE}-Style Optimization},
  author = {Ahmadian, Arash and Cremer, Chris},
  booktitle = {Proceedings of the 62nd Annual Meeting of the Association for Computational Linguistics},
  volume = {1}, pages = {12248--12267}, address = {Bangkok, Thailand}, month = aug,
  publisher = {Association for Computational Linguistics}, year = {2024},
}
@article{silver2017,
  title = {Mastering the Game of Go without Human Knowledge},
  author = {Silver, David and Schrittwieser, Julian},
  journal = {Nature}, volume = {550}, number = {7676}, pages = {354--359}, issn = {1476-4687}, year = {2017},
}
@mastersthesis{zhang2024,
  title = {面向长程任务的智能体强化学习},
  author = {Zhang, Wei},
  school = {清华大学}, address = {北京}, year = {2024},
}
@book{sutton2018,
  title = {Reinforcement Learning: An Introduction},
  author = {Sutton, Richard S. and Barto, Andrew G.},
  publisher = {MIT Press}, edition = {Second}, isbn = {978-0-262-03924-6}, year = {2018},
}
"""


def _written(text: str) -> dict[str, tuple[str, dict[str, str]]]:
    """Each entry of an exported file by its key: its type and its fields, decoded."""
    library = parse_string(text)
    return {e.key: (e.entry_type, {f.key.lower(): latex_to_text(str(f.value)) for f in e.fields}) for e in library.entries}


def test_a_reference_managers_entries_come_back_with_their_types_venues_pages_and_volumes(db: None) -> None:
    report = sources_import(text=ZOTERO)
    assert report.counts == {"created": 5, "duplicate": 0, "refused": 0}

    text = dump_bibtex(Source.objects.for_export())
    written = _written(text)

    assert written["yao2023react"][0] == "inproceedings"
    assert written["yao2023react"][1]["booktitle"] == "International Conference on Learning Representations"
    assert written["yao2023react"][1]["publisher"] == "OpenReview.net" and "journal" not in written["yao2023react"][1]
    acl = written["back2basics"][1]
    assert (acl["volume"], acl["address"]) == ("1", "Bangkok, Thailand")
    assert "month = aug," in text  # BibTeX's own macro, which styles print as the month's name
    assert "pages = {12248--12267}" in text and "pages = {354--359}" in text
    assert written["silver2017"] == ("article", {**written["silver2017"][1], "journal": "Nature", "number": "7676",
                                                 "volume": "550", "issn": "1476-4687"})
    assert written["zhang2024"][0] == "mastersthesis" and written["zhang2024"][1]["school"] == "清华大学"
    assert (written["sutton2018"][0], written["sutton2018"][1]["edition"], written["sutton2018"][1]["isbn"]) == (
        "book", "Second", "978-0-262-03924-6")
    # read again, the file is the same works, every detail as it was
    again = {entry.label: entry.draft for entry in parse_bibtex(text)}
    for source in Source.objects.all():
        draft = again[source.bibtex_key]
        assert draft is not None and (draft.entry_type, draft.bibliographic, draft.venue) == (
            source.entry_type, source.bibliographic, source.venue), source.slug


def test_the_same_details_go_out_and_come_back_as_csl_json(db: None) -> None:
    sources_import(text=ZOTERO)

    items = {item["id"]: item for item in json.loads(dump_csl_json(Source.objects.for_export()))}

    assert items["back2basics"]["type"] == "paper-conference"
    assert (items["back2basics"]["page"], items["back2basics"]["publisher-place"]) == ("12248–12267", "Bangkok, Thailand")
    assert (items["silver2017"]["type"], items["silver2017"]["issue"], items["silver2017"]["volume"]) == (
        "article-journal", "7676", "550")
    assert (items["sutton2018"]["type"], items["sutton2018"]["ISBN"], items["sutton2018"]["edition"]) == (
        "book", "978-0-262-03924-6", "Second")
    assert items["zhang2024"]["type"] == "thesis"
    # the month goes in the date; a book's and a thesis' venue is their publisher, not a container they are printed in
    assert items["back2basics"]["issued"] == {"date-parts": [[2024, 8]]}
    assert (items["sutton2018"]["publisher"], items["zhang2024"]["publisher"]) == ("MIT Press", "清华大学")
    assert "container-title" not in items["sutton2018"] and "container-title" not in items["zhang2024"]
    for entry in parse_csl_json(json.dumps(list(items.values()))):
        source = Source.objects.get(bibtex_key=entry.label)
        assert entry.draft is not None
        # (a publisher that is the work's venue is said once, as its venue; an article's journal is its container)
        details = {k: v for k, v in source.bibliographic.items() if (k in ("volume", "number", "pages", "publisher",
                                                                         "address", "edition", "isbn", "issn", "month")
                   and v != source.venue) or (k == "journal" and source.entry_type == "article")}
        assert entry.draft.bibliographic == details, source.slug
        assert entry.draft.venue == source.venue, source.slug


def test_a_works_page_and_the_api_show_the_details_its_reference_file_gave(db: None, client: Client) -> None:
    sources_import(text=ZOTERO)
    acl = Source.objects.get(bibtex_key="back2basics")

    html = client.get(acl.get_absolute_url(), headers={"accept-language": "zh-CN"}).content.decode()
    api = client.get(f"/api/v1/sources/{acl.slug}/").json()

    assert '<dt>页码</dt><dd lang="en">12248–12267</dd>' in html and '<dt>出版地</dt><dd lang="en">Bangkok, Thailand</dd>' in html
    assert (api["entry_type"], api["bibliographic"]["pages"]) == ("inproceedings", "12248–12267")
    # the month by its name in the reader's language
    assert '<dt>月份</dt><dd lang="zh-Hans">八月</dd>' in html and api["bibliographic"]["month"] == "8"
