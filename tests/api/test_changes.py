"""Recent changes through the API, filtered as the recent changes page is; the page itself answers a script that asks
it for JSON with the API's address."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries
from rest_framework.test import APIClient

from tests.factories import make_editor, make_page, make_source
from wiki.models import ChangeEvent
from wiki.services.pages import page_save_revision
from wiki.services.sources import source_update

pytestmark = pytest.mark.django_db

CHANGES = "/api/v1/changes/"


def _rows(client: APIClient, **params: str) -> list[tuple[str, str, str]]:
    response = client.get(CHANGES, params)
    assert response.status_code == 200, response.json()
    return [(row["kind"], row["action"], row["summary"]) for row in response.json()["results"]]


def test_recent_changes_are_listed_newest_first_with_the_pages_filters(api: APIClient) -> None:
    editor = make_editor("changes-editor")
    page, work = make_page(title="Changed"), make_source(short_name="ChangedWork")
    page_save_revision(slug=page.slug, title=page.title, body="Typo fixed.", user=editor, minor=True, comment="typo")
    source_update(source=work, fields={"notes": "Noted."}, summary="work note", user=editor)

    assert _rows(api, kind="source") == [("source", "edited", "work note")]
    assert _rows(api, user="changes-editor") == [("source", "edited", "work note"), ("page", "edited", "typo")]
    assert _rows(api, kind="page", hideminor="true") == [("page", "created", "")]
    assert _rows(api, kind="page", hideminor="1") == _rows(api, kind="page", hideminor="true")
    assert len(_rows(api, kind="page", hideminor="false")) == len(_rows(api, kind="page", hideminor="0")) == 2
    ChangeEvent.objects.filter(kind="source").update(created_at=timezone.now() - timedelta(days=2))
    assert [row[0] for row in _rows(api, days="1")] == ["page", "page"]
    assert sorted(row[0] for row in _rows(api, days="3")) == ["page", "page", "source"]
    body = api.get(CHANGES, {"page_size": 1}).json()
    # From the list's address the next page is by cursor; a page read by number links by number.
    assert body["count"] == 3 and body["next"].startswith("http://testserver/api/v1/changes/?after=")
    assert api.get(CHANGES, {"page_size": 1, "page": 1}).json()["next"] == "http://testserver/api/v1/changes/?page=2&page_size=1"
    assert body["results"][0]["user"] == "changes-editor"
    assert "changes" in api.get("/api/v1/").json()


def test_a_filter_value_the_page_does_not_offer_is_a_400_naming_each(api: APIClient) -> None:
    for params in ({"kind": "bogus"}, {"days": "2"}, {"hideminor": "yes"}, {"user": "nobody-by-that-name"},
                   {"days": "2", "hideminor": "yes"}, {"latest": "1"}):
        refused = api.get(CHANGES, params)
        assert refused.status_code == 400, params
        assert set(refused.json()["errors"]) == set(params), refused.json()


def test_hiding_ones_own_edits_needs_an_account(api: APIClient, reader_api: APIClient) -> None:
    reader = reader_api.handler._force_user  # type: ignore[attr-defined]
    page = make_page(title="Mine and theirs")
    page_save_revision(slug=page.slug, title=page.title, body="Mine.", user=reader, comment="mine")

    anonymous = api.get(CHANGES, {"hidemine": "true"})
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "not_authenticated"
    assert anonymous["WWW-Authenticate"].startswith("Token")
    assert api.get(CHANGES, {"hidemine": "false"}).status_code == 200
    assert _rows(reader_api, hidemine="1") == [("page", "created", "")]


def test_recent_changes_run_as_many_queries_however_many(api: APIClient, django_assert_num_queries: DjangoAssertNumQueries) -> None:
    make_page(title="First change")
    with CaptureQueriesContext(connection) as few:
        assert api.get(CHANGES).status_code == 200
    for n in range(10):
        page = make_page(title=f"Change {n}")
        page_save_revision(slug=page.slug, title=page.title, body="Again.")
    with django_assert_num_queries(len(few.captured_queries)):
        assert len(api.get(CHANGES).json()["results"]) == 21


@pytest.mark.parametrize(("query", "accept"), [("?format=json", "text/html,*/*"), ("", "application/json")])
def test_the_recent_changes_page_asked_for_json_names_the_api(client: Client, query: str, accept: str) -> None:
    response = client.get(f"/changes/{query}{'&' if query else '?'}kind=page&p=2", HTTP_ACCEPT=accept)

    assert response.status_code == 406 and response["Content-Type"] == "application/json"
    assert response.json()["url"] == "http://testserver/api/v1/changes/?kind=page&page=2"
    assert response.json()["code"] == "not_acceptable" and response.json()["available"] == ["text/html"]
    assert response["Link"] == '<http://testserver/api/v1/changes/?kind=page&page=2>; rel="alternate"; type="application/json"'
    assert "Accept" in response["Vary"]


def test_the_recent_changes_page_stays_html_for_browsers(client: Client) -> None:
    page = client.get("/changes/", HTTP_ACCEPT="text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
    assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
    assert '<link rel="alternate" type="application/json" href="/api/v1/changes/">' in page.content.decode()
    assert client.get("/changes/").status_code == 200


def test_the_watchlist_and_recent_changes_filters_are_typed_for_generated_clients(api: APIClient) -> None:
    paths = api.get("/api/schema/", {"format": "json"}).json()["paths"]
    for path in ("/api/v1/watchlist/", CHANGES):
        parameters = {p["name"]: p["schema"] for p in paths[path]["get"]["parameters"]}
        assert parameters["days"]["type"] == "integer" and sorted(parameters["days"]["enum"]) == [1, 3, 7, 30]
        assert parameters["hideminor"]["type"] == parameters["hidemine"]["type"] == "boolean"
    assert "latest" in {p["name"] for p in paths["/api/v1/watchlist/"]["get"]["parameters"]}


EARLIER = datetime(2025, 1, 1, 0, 0, tzinfo=UTC)
LATER = datetime(2025, 1, 1, 1, 0, tzinfo=UTC)


def _made(api: APIClient, moment: str, **params: str) -> list[str]:
    response = api.get(CHANGES, {"updated_after": moment, **params})
    assert response.status_code == 200, response.json()
    return [row["label"] for row in response.json()["results"]]


def test_updated_after_lists_the_changes_made_after_the_moment_as_the_other_lists_read_it(api: APIClient) -> None:
    old, new = make_page(title="Changed earlier"), make_page(title="Changed later")
    ChangeEvent.objects.filter(object_id=old.pk, kind="page").update(created_at=EARLIER)
    ChangeEvent.objects.filter(object_id=new.pk, kind="page").update(created_at=LATER)

    assert _made(api, "2025-01-01T00:30:00Z") == ["Changed later"]
    assert _made(api, "2025-01-01T08:30:00+08:00") == ["Changed later"]
    assert _made(api, "2024-12-31T23:59:59Z") == ["Changed later", "Changed earlier"]
    # after, not at: the newest change a mirror has seen is not listed again
    assert _made(api, "2025-01-01T01:00:00Z") == []
    # without an offset, in the wiki's time zone (Asia/Shanghai, eight hours ahead of UTC); a date alone is its midnight
    assert _made(api, "2025-01-01T08:30:00") == ["Changed later"]
    assert _made(api, "2025-01-01") == ["Changed later", "Changed earlier"]
    # with the other filters
    assert _made(api, "2024-12-31T23:59:59Z", kind="source") == []


@pytest.mark.parametrize("language", ["en", "zh-Hans"])
def test_an_updated_after_that_is_no_time_is_a_400_naming_it(api: APIClient, language: str) -> None:
    refused = api.get(CHANGES, {"updated_after": "yesterday"}, HTTP_ACCEPT_LANGUAGE=language)
    twice = api.get(f"{CHANGES}?updated_after=2025-01-01&updated_after=2025-01-02")

    assert refused.status_code == 400 and refused.json()["codes"] == {"updated_after": ["invalid"]}
    assert refused.json()["detail"] != api.get(CHANGES, {"updated_after": "yesterday"},
                                               HTTP_ACCEPT_LANGUAGE="zh-Hans" if language == "en" else "en").json()["detail"]
    assert twice.status_code == 400 and twice.json()["codes"] == {"updated_after": ["repeated_parameter"]}


def test_updated_after_pages_by_cursor_and_stays_in_the_next_link(api: APIClient) -> None:
    for n in range(5):
        make_page(title=f"Mirrored change {n}")
    ChangeEvent.objects.update(created_at=LATER)

    first = api.get(CHANGES, {"updated_after": "2025-01-01T00:30:00Z", "page_size": "3"}).json()
    second = api.get(first["next"]).json()

    assert first["count"] == 5 and "updated_after=2025-01-01T00%3A30%3A00Z" in first["next"]
    assert len(first["results"] + second["results"]) == 5 and second["next"] is None


def test_updated_after_runs_as_many_queries_however_many_changes(api: APIClient,
                                                                 django_assert_num_queries: DjangoAssertNumQueries) -> None:
    make_page(title="First change")
    with CaptureQueriesContext(connection) as few:
        assert api.get(CHANGES, {"updated_after": "2024-01-01T00:00:00Z"}).status_code == 200
    for n in range(10):
        page = make_page(title=f"Change {n}")
        page_save_revision(slug=page.slug, title=page.title, body="Again.")
    with django_assert_num_queries(len(few.captured_queries)):
        assert len(api.get(CHANGES, {"updated_after": "2024-01-01T00:00:01Z"}).json()["results"]) == 21


def test_the_schema_names_updated_after_on_recent_changes(api: APIClient) -> None:
    parameters = {p["name"]: p for p in api.get("/api/schema/", {"format": "json"}).json()["paths"][CHANGES]["get"]["parameters"]}

    assert parameters["updated_after"]["schema"] == {"type": "string", "format": "date-time"}
    assert "created_at" in parameters["updated_after"]["description"]
