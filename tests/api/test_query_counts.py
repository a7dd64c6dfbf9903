"""Every API list and detail runs the queries named here, the same for 5 rows of a small wiki and 50 rows of one ten
times larger."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.factories import SmallWiki
from tests.queries import query_names
from wiki.caching import versions
from wiki.devtools.generate import wiki_generate
from wiki.models import Claim, OpenQuestion, Page, Source
from wiki.search.index import search_reindex_all

pytestmark = pytest.mark.django_db

# What each request reads, in order, when the content changed since its response was cached.
EXPECTED: dict[str, list[str]] = {
    "/api/v1/pages/": ["SELECT wiki_page", "COUNT wiki_page", "SELECT wiki_page"],
    "/api/v1/pages/<page>/": ["SELECT wiki_revision", "SELECT wiki_wikilink"],
    "/api/v1/pages/<page>/revisions/": ["SELECT wiki_page", "COUNT wiki_revision", "SELECT wiki_revision"],
    "/api/v1/sources/": [
        "SELECT wiki_source", "COUNT wiki_source", "SELECT wiki_source", "SELECT wiki_classification", "SELECT wiki_component",
    ],
    "/api/v1/sources/?mechanism=policy_gradient&verdict=strict": [
        "SELECT wiki_source", "COUNT wiki_source", "SELECT wiki_source", "SELECT wiki_classification", "SELECT wiki_component",
    ],
    "/api/v1/claims/": ["COUNT wiki_claim", "SELECT wiki_claim", "SELECT wiki_citation", "SELECT wiki_source"],
    # The work named exists (a filter naming no work is refused), then its claims.
    "/api/v1/claims/?source=<work>": [
        "SELECT wiki_source", "COUNT wiki_claim", "SELECT wiki_claim", "SELECT wiki_citation", "SELECT wiki_source",
    ],
    "/api/v1/claims/?about=<work>": [
        "SELECT wiki_source", "COUNT wiki_claim", "SELECT wiki_claim", "SELECT wiki_citation", "SELECT wiki_source",
    ],
    "/api/v1/classifications/": ["COUNT wiki_classification", "SELECT wiki_classification"],
    "/api/v1/contrasts/": ["COUNT wiki_contrast", "SELECT wiki_contrast"],
    # A classification or a contrast changed since also when its works did: a join, no query more.
    "/api/v1/classifications/?updated_after=2000-01-01": ["COUNT wiki_classification", "SELECT wiki_classification"],
    "/api/v1/contrasts/?updated_after=2000-01-01": ["COUNT wiki_contrast", "SELECT wiki_contrast"],
    "/api/v1/questions/": ["COUNT wiki_openquestion", "SELECT wiki_openquestion", "SELECT wiki_claim", "SELECT wiki_source"],
    # One look-up of the works and pages named exactly as the search, by their stored search forms; when nothing is
    # found, every work's and page's name too (once per content version), to offer those named close to it.
    "/api/v1/search/?q=GRPO": ["SELECT wiki_glossaryterm", "WITH wiki_searchdocument", "(SELECT wiki_source"],
    "/api/v1/search/?q=qqqqzzzz": ["SELECT wiki_glossaryterm", "WITH wiki_searchdocument", "(SELECT wiki_source",
                                   "SELECT wiki_source", "SELECT wiki_page"],
    # The works', their components' and pages' names and the glossary, once per content version.
    "/api/v1/search/names/?q=skil": ["SELECT wiki_source", "SELECT wiki_page", "SELECT wiki_component", "SELECT wiki_glossaryterm"],
    "/api/v1/glossary/": ["COUNT wiki_glossaryterm", "SELECT wiki_glossaryterm"],
    "/api/v1/glossary/<term>/": ["SELECT wiki_glossaryterm"],
}

# An export reads its works in one statement.
EXPORT = ["SELECT wiki_source"]


def _urls(wiki: SmallWiki) -> list[str]:
    return [
        "/api/v1/pages/",
        f"/api/v1/pages/{wiki.page.slug}/",
        f"/api/v1/pages/{wiki.page.slug}/revisions/",
        "/api/v1/sources/",
        "/api/v1/sources/?mechanism=policy_gradient&verdict=strict",
        "/api/v1/claims/",
        f"/api/v1/claims/?source={wiki.strict.slug}",
        f"/api/v1/claims/?about={wiki.strict.slug}",
        "/api/v1/classifications/",
        "/api/v1/contrasts/",
        "/api/v1/classifications/?updated_after=2000-01-01",
        "/api/v1/contrasts/?updated_after=2000-01-01",
        "/api/v1/questions/",
        "/api/v1/search/?q=GRPO",
        "/api/v1/search/?q=qqqqzzzz",
        "/api/v1/search/names/?q=skil",
        "/api/v1/glossary/",
        f"/api/v1/glossary/{wiki.term.slug}/",
    ]


def _queries(client: APIClient, url: str, page_size: int) -> tuple[list[str], int]:
    separator = "&" if "?" in url else "?"
    versions.bump()  # a response cached before is stale: count what it costs to make
    with CaptureQueriesContext(connection) as queries:
        # the names search is not paged: it answers up to ``limit`` names (20 at most)
        size = f"limit={min(page_size, 20)}" if "/search/names/" in url else f"page_size={page_size}"
        response = client.get(f"{url}{separator}{size}")
    assert response.status_code == 200, (url, response.content[:300])
    body = response.json()
    rows = len(body) if isinstance(body, list) else len(body.get("results", body.get("groups", [])))
    return query_names(queries), rows


def test_every_list_runs_the_named_queries_for_ten_times_the_rows(small_wiki: SmallWiki) -> None:
    client = APIClient()
    urls = _urls(small_wiki)
    for url in urls:
        client.get(url)  # warm what is filled once per process, not per request
    small = {url: _queries(client, url, 5) for url in urls}
    before = (Page.objects.count(), Claim.objects.count(), Source.objects.count(), OpenQuestion.objects.count())

    wiki_generate(works=max(60, 10 * before[2]), claims=max(60, 10 * before[1]), pages=10 * before[0], seed=21)
    search_reindex_all()
    # Round-robin over the pages, so every run counts queries on the same rows.
    pages = list(Page.objects.order_by("slug"))
    for n in range(10 * before[3]):
        OpenQuestion.objects.create(title=f"Generated question {n}", page=pages[n % len(pages)])
    large = {url: _queries(client, url, 50) for url in urls}

    assert Claim.objects.count() >= 10 * before[1]
    print("queries:", {url: names for url, (names, _) in small.items()})
    for url in urls:
        assert large[url][0] == small[url][0], f"{url}: {small[url][0]} for 5 rows, {large[url][0]} for 50"
    assert large["/api/v1/claims/"][1] == 50
    assert large["/api/v1/sources/"][1] == 50
    assert {url.replace(small_wiki.page.slug, "<page>").replace(small_wiki.strict.slug, "<work>").replace(small_wiki.term.slug, "<term>"): names
            for url, (names, _) in small.items()} == EXPECTED


@pytest.mark.parametrize("fmt", ["bib", "csl"])
def test_exports_run_the_named_queries_for_ten_times_the_works(small_wiki: SmallWiki, fmt: str) -> None:
    client = APIClient()

    def names(url: str) -> list[str]:
        Source.objects.filter(pk=small_wiki.strict.pk).update(notes="moved")
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200, response.content[:300]
        return query_names(queries)

    urls = [f"/api/v1/sources/export/?format={fmt}", f"/api/v1/sources/export/?format={fmt}&mechanism=policy_gradient"]
    small = [names(url) for url in urls]
    wiki_generate(works=max(60, 10 * Source.objects.count()), claims=100, pages=5, seed=22)
    assert [names(url) for url in urls] == small
    print("export queries:", small)
    assert small == [EXPORT, EXPORT]
