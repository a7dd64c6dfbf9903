"""The source list refuses what it cannot read (an export format, an inverted year range), sorts as the API orders,
and both put undated works last."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import make_source
from wiki.models import Source

pytestmark = pytest.mark.django_db

LIST = reverse("wiki:source-list")


@pytest.fixture
def works() -> list[Source]:
    return [
        make_source(slug="bravo", short_name="Bravo", title="Zeta: Late in the alphabet", year=2024),
        make_source(slug="alpha", short_name="Alpha", title="Mu: Undated"),
        make_source(slug="charlie", short_name="Charlie", title="Alpha: Early in the alphabet", year=2021),
        make_source(slug="delta", short_name="Delta", title="Kappa: Newest", year=2026),
    ]


def _order(html: str) -> list[str]:
    return list(re.findall(r'href="/sources/([a-z]+)/" class="short-name"', html))


def test_an_unknown_export_format_is_refused_like_an_unknown_mechanism(client: Client, works: list[Source]) -> None:
    response = client.get(LIST, {"format": "xyz"})

    assert response.status_code == 400
    assert "“xyz” is not a format this list downloads as" in response.content.decode()
    assert client.get(LIST, {"format": "bib", "kind": "paper"})["Content-Disposition"].startswith("attachment")


def test_an_inverted_year_range_is_a_form_error_not_an_empty_list(client: Client, works: list[Source]) -> None:
    response = client.get(LIST, {"year_min": "2025", "year_max": "2020"})

    assert response.status_code == 400
    assert "swap the two years" in response.content.decode()
    assert client.get(LIST, {"year_min": "2020", "year_max": "2025"}).status_code == 200
    api = APIClient().get("/api/v1/sources/", {"year_min": "2025", "year_max": "2020"})
    assert api.status_code == 400 and "year_max" in api.json()["errors"]


@pytest.mark.parametrize(("sort", "order"), [
    ("", ["alpha", "bravo", "charlie", "delta"]),
    ("year", ["charlie", "bravo", "delta", "alpha"]),
    ("-year", ["delta", "bravo", "charlie", "alpha"]),
    ("title", ["charlie", "delta", "alpha", "bravo"]),
    ("-title", ["bravo", "alpha", "delta", "charlie"]),
    ("added", ["bravo", "alpha", "charlie", "delta"]),
    ("-added", ["delta", "charlie", "alpha", "bravo"]),
])
def test_the_list_sorts_as_asked_with_undated_works_last(client: Client, works: list[Source], sort: str, order: list[str]) -> None:
    response = client.get(LIST, {"sort": sort} if sort else {})

    assert response.status_code == 200 and _order(response.content.decode()) == order


def test_the_sort_links_keep_the_filters_and_an_unknown_sort_is_refused(client: Client, works: list[Source]) -> None:
    html = client.get(LIST, {"kind": "paper", "sort": "-year"}).content.decode()

    assert 'href="?kind=paper&amp;sort=year"' in html and 'href="?kind=paper&amp;sort=title"' in html
    assert 'aria-sort="descending"' in html and "1 source matches" not in html
    assert client.get(LIST, {"sort": "bogus"}).status_code == 400
    assert client.get(LIST, {"sort": "year", "format": "bib"}).content.decode().index("charlie") >= 0


def test_a_sorted_list_reads_as_many_times_for_few_works_as_for_many(client: Client, works: list[Source]) -> None:
    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(LIST, {"sort": "-year", "year_min": "2000"}).status_code == 200
        return len(queries)

    few = count()
    for n in range(30):
        make_source(slug=f"more-{n}", short_name=f"More {n}", title=f"More {n}", year=2000 + n % 20)
    assert count() == few


@pytest.mark.parametrize(("ordering", "order"), [("-year", ["delta", "bravo", "charlie", "alpha"]),
                                                  ("year", ["charlie", "bravo", "delta", "alpha"])])
def test_the_api_orders_by_year_with_undated_works_last(works: list[Source], ordering: str, order: list[str]) -> None:
    response = APIClient().get("/api/v1/sources/", {"ordering": ordering})

    assert [row["slug"] for row in response.json()["results"]] == order
