"""API reads come from the cache, after throttling, and show every write at once."""

from __future__ import annotations

import pytest
from pytest_django import DjangoAssertNumQueries, Settings
from rest_framework.test import APIClient

from tests.factories import make_page
from wiki.services.pages import page_save_revision

pytestmark = pytest.mark.django_db


def test_a_second_anonymous_read_of_a_page_runs_no_query(api: APIClient, django_assert_num_queries: DjangoAssertNumQueries) -> None:
    make_page(slug="api-cached", title="API cached", body="First.")
    assert api.get("/api/v1/pages/api-cached/").status_code == 200
    with django_assert_num_queries(0):
        response = api.get("/api/v1/pages/api-cached/")
    assert response.status_code == 200 and response.json()["body"] == "First."


def test_a_write_shows_in_the_next_api_read(api: APIClient) -> None:
    make_page(slug="api-edited", title="API edited", body="First.")
    assert api.get("/api/v1/pages/api-edited/").json()["body"] == "First."
    page_save_revision(slug="api-edited", title="API edited", body="Second.", base_revision=1)
    assert api.get("/api/v1/pages/api-edited/").json()["body"] == "Second."


def test_cached_reads_still_count_against_the_anonymous_rate(api: APIClient, settings: Settings) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "3/minute"}}
    make_page(slug="api-rated", title="Rated")
    statuses = [api.get("/api/v1/pages/api-rated/").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
