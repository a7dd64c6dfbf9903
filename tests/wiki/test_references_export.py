"""BibTeX and CSL-JSON out: what the wiki exports, its own importer reads back as the same works."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import make_classification, make_source
from wiki.models import Source, SourceKind
from wiki.references.bibtex import parse_bibtex
from wiki.references.bibtex_export import dump_bibtex, latex_escaped
from wiki.references.citation_keys import citation_keys
from wiki.references.csl import dump_csl_json, parse_csl_json
from wiki.references.latex import LATEX_LEFT, latex_to_text
from wiki.services.source_import import sources_import

FIELDS = ("title", "short_name", "kind", "authors", "year", "venue", "arxiv_id", "doi", "abstract", "notes")
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
    ]


def test_latex_escaping_decodes_back_to_the_text() -> None:
    for text in NASTY:
        assert latex_to_text(latex_escaped(text)) == text
    assert latex_escaped("Vulić & co_") == "Vuli{\\'c} {\\&} co{\\_}"


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
        for name in FIELDS:
            if name != "venue":
                assert getattr(entry.draft, name) == getattr(source, name), (source.slug, name)
        # What the importer fills in for a work that lacks it: arXiv as the venue of a preprint, the address of its
        # identifier; the same as importing the work anew gives.
        assert entry.draft.venue == (source.venue or ("arXiv" if source.arxiv_id else ""))
        assert entry.draft.url == (source.url or (f"https://arxiv.org/abs/{source.arxiv_id}" if source.arxiv_id else
                                                  f"https://doi.org/{source.doi}" if source.doi else ""))
        assert entry.draft.bibtex_key == keys[source.pk]
        if not LATEX_LEFT.search(source.title + source.authors):  # no LaTeX left that the work did not have
            assert not LATEX_LEFT.search(entry.draft.title + entry.draft.authors)


def test_importing_the_export_finds_every_work_already_there(seed: None) -> None:
    _tricky()
    count = Source.objects.count()
    report = sources_import(text=dump_bibtex(Source.objects.for_export()))
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


def test_exported_csl_json_reads_back_as_the_same_works(seed: None) -> None:
    _tricky()
    sources = list(Source.objects.for_export())
    items = json.loads(dump_csl_json(sources))
    keys = citation_keys(sources)
    assert [item["id"] for item in items] == [keys[s.pk] for s in sources]
    entries = parse_csl_json(json.dumps(items))
    for source, entry in zip(sources, entries, strict=True):
        assert entry.draft is not None and entry.errors == []
        for name in ("title", "short_name", "authors", "year", "arxiv_id", "doi", "abstract"):
            assert getattr(entry.draft, name) == getattr(source, name), (source.slug, name)


@pytest.mark.parametrize(("fmt", "media_type", "extension"), [
    ("bib", "application/x-bibtex", "bib"),
    ("csl", "application/vnd.citationstyles.csl+json", "json"),
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
    found = {entry.label for entry in parse_bibtex(text)} if fmt == "bib" else {item["id"] for item in json.loads(text)}
    assert found == set(keys.values())
    assert len(found) > 100


def test_the_source_list_offers_the_export_of_what_it_shows(client: Client, seed: None) -> None:
    html = client.get(reverse("wiki:source-list") + "?kind=paper&p=1").content.decode()
    assert 'href="?kind=paper&amp;format=bib"' in html
    assert 'href="?kind=paper&amp;format=csl"' in html
    assert 'href="?format=bib"' in client.get(reverse("wiki:source-list")).content.decode()


def test_an_invalid_filter_exports_nothing_and_says_why(client: Client, seed: None) -> None:
    response = client.get(reverse("wiki:source-list") + "?year=abc&format=bib")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("fmt", ["bib", "csl"])
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
