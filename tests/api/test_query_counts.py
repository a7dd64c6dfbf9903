from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from wiki.models import Claim, OpenQuestion, Page, Source
from wiki.search.index import search_reindex_all
from wiki.devtools.generate import wiki_generate

pytestmark = pytest.mark.django_db

LISTS = [
    "/api/v1/pages/",
    "/api/v1/pages/agentic-rl/",
    "/api/v1/pages/agentic-rl/revisions/",
    "/api/v1/sources/",
    "/api/v1/sources/?mechanism=policy_gradient&verdict=strict",
    "/api/v1/claims/",
    "/api/v1/claims/?source=skillforge",
    "/api/v1/classifications/",
    "/api/v1/contrasts/",
    "/api/v1/questions/",
    "/api/v1/search/?q=GRPO%20奖励",
]


def _count(client: APIClient, url: str, page_size: int) -> tuple[int, int]:
    separator = "&" if "?" in url else "?"
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"{url}{separator}page_size={page_size}")
    assert response.status_code == 200, (url, response.content[:300])
    body = response.json()
    rows = len(body.get("results", body.get("groups", [])))
    return len(queries), rows


def test_every_list_runs_the_same_queries_for_ten_times_the_rows(seed: None) -> None:
    client = APIClient()
    small = {url: _count(client, url, 5) for url in LISTS}
    before = (Page.objects.count(), Claim.objects.count(), Source.objects.count(), OpenQuestion.objects.count())

    wiki_generate(works=10 * before[2], claims=10 * before[1], pages=10 * before[0], seed=21)
    search_reindex_all()
    # Round-robin over the pages, so every run counts queries on the same rows.
    pages = list(Page.objects.order_by("slug"))
    for n in range(10 * before[3]):
        OpenQuestion.objects.create(title=f"Generated question {n}", page=pages[n % len(pages)])
    large = {url: _count(client, url, 50) for url in LISTS}

    assert Claim.objects.count() >= 10 * before[1]
    for url in LISTS:
        assert large[url][0] == small[url][0], f"{url}: {small[url][0]} queries for 5 rows, {large[url][0]} for 50"
    assert large["/api/v1/claims/"][1] == 50
    assert large["/api/v1/sources/"][1] == 50


@pytest.mark.parametrize("fmt", ["bib", "csl"])
def test_exports_run_the_same_queries_for_ten_times_the_works(seed: None, fmt: str) -> None:
    client = APIClient()

    def count(url: str) -> int:
        Source.objects.filter(pk=Source.objects.order_by("pk").values_list("pk", flat=True)[0]).update(notes="moved")
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200, response.content[:300]
        return len(queries)

    urls = [f"/api/v1/sources/export/?format={fmt}", f"/api/v1/sources/export/?format={fmt}&mechanism=policy_gradient"]
    small = [count(url) for url in urls]
    wiki_generate(works=10 * Source.objects.count(), claims=100, pages=5, seed=22)
    assert [count(url) for url in urls] == small
