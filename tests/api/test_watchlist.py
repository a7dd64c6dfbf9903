"""The watchlist through the API: the changes to what the client watches, and watching pages, works and questions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries
from rest_framework.test import APIClient

from tests.factories import make_editor, make_page, make_question, make_reader, make_source
from wiki.models import ChangeEvent, Watch
from wiki.services.deletion import source_delete
from wiki.services.merges import source_merge
from wiki.services.page_moves import page_move
from wiki.services.pages import page_save_revision
from wiki.services.sources import source_update
from wiki.services.watches import watch_add

pytestmark = pytest.mark.django_db

WATCHLIST = "/api/v1/watchlist/"


def test_anonymous_clients_have_no_watchlist(api: APIClient) -> None:
    page = make_page(title="Anonymous API")
    for method, url in (("get", WATCHLIST), ("get", f"/api/v1/watchlist/pages/{page.slug}/"),
                        ("put", f"/api/v1/watchlist/pages/{page.slug}/")):
        response = getattr(api, method)(url)
        assert response.status_code == 401, url
        assert response.json()["code"] == "not_authenticated"
    assert not Watch.objects.exists()


def test_a_reader_watches_and_unwatches_a_page_a_work_and_a_question(reader_api: APIClient) -> None:
    page, work, question = make_page(title="API page"), make_source(short_name="ApiWork"), make_question(title="API?")
    for url in (f"/api/v1/watchlist/pages/{page.slug}/", f"/api/v1/watchlist/sources/{work.slug}/",
                f"/api/v1/watchlist/questions/{question.pk}/"):
        assert reader_api.get(url).json()["code"] == "not_watching"
        assert reader_api.put(url).json() == {"watching": True}
        assert reader_api.put(url).json() == {"watching": True}  # once is enough
        assert reader_api.get(url).json() == {"watching": True}
        assert reader_api.delete(url).json() == {"watching": False}
        # the watch is a resource of its own: gone once unwatched, even for a client that sends If-None-Match: *
        assert reader_api.get(url).status_code == reader_api.get(url, HTTP_IF_NONE_MATCH="*").status_code == 404
        assert reader_api.put(url).status_code == 200
    assert Watch.objects.count() == 3
    assert reader_api.put("/api/v1/watchlist/pages/no-such-page/").status_code == 404
    assert reader_api.get("/api/v1/watchlist/questions/999999/").status_code == 404


def test_a_pages_watch_by_an_address_it_was_moved_from_leads_to_its_watch_at_its_address_now(reader_api: APIClient) -> None:
    """As the page's own address does: a read answers 301, a watch or unwatch 308, which a client sends again as it
    was, to the page's watch now."""
    page = page_move(page=make_page(slug="old-notes", title="Old notes"), slug="new-notes", user=None)
    old, new = "/api/v1/watchlist/pages/old-notes/", "/api/v1/watchlist/pages/new-notes/"

    watched = reader_api.put(old, {"watching": True}, format="json")
    read = reader_api.get(old, {"format": "json"})

    assert (watched.status_code, watched["Location"]) == (308, f"http://testserver{new}")
    assert (read.status_code, read["Location"]) == (301, f"http://testserver{new}?format=json")
    assert not Watch.objects.exists()
    assert reader_api.put(watched["Location"], {"watching": True}, format="json").json() == {"watching": True}
    assert Watch.objects.filter(page=page).count() == 1
    unwatched = reader_api.delete(old)
    assert (unwatched.status_code, unwatched["Location"]) == (308, f"http://testserver{new}")
    assert reader_api.delete(unwatched["Location"]).json() == {"watching": False}
    # an address no page ever had, or one with a control character, is still no page
    assert reader_api.put("/api/v1/watchlist/pages/never-there/").status_code == 404
    assert reader_api.get("/api/v1/watchlist/pages/old%00notes/").status_code == 404


def test_a_works_watch_by_the_slug_of_a_work_merged_into_it_leads_to_the_kept_works_watch(reader_api: APIClient) -> None:
    """As the merged work's own address leads to the kept work: a read answers 301, a watch or unwatch 308. The
    merge moved the merged work's watchers to the kept work, which is the one they watch."""
    reader = make_reader("twin-follower")
    reader_api.force_authenticate(reader)
    merged, kept = make_source(slug="twin"), make_source(slug="kept-twin")
    watch_add(user=reader, target=merged)
    source_merge(merged=merged, kept=kept, user=None)
    old, new = "/api/v1/watchlist/sources/twin/", "/api/v1/watchlist/sources/kept-twin/"

    read = reader_api.get(old, {"format": "json"})
    watched = reader_api.put(old, {"watching": True}, format="json")
    unwatched = reader_api.delete(old)

    assert (read.status_code, read["Location"]) == (301, f"http://testserver{new}?format=json")
    assert reader_api.get(read["Location"]).json() == {"watching": True}
    assert (watched.status_code, watched["Location"]) == (308, f"http://testserver{new}")
    assert (unwatched.status_code, unwatched["Location"]) == (308, f"http://testserver{new}")
    assert list(Watch.objects.filter(user=reader).values_list("source__slug", flat=True)) == ["kept-twin"]
    assert reader_api.delete(unwatched["Location"]).json() == {"watching": False}
    # a work deleted without a merge is still read and unwatched where it was, not watched anew
    gone = make_source(slug="gone-work")
    watch_add(user=reader, target=gone)
    source_delete(source=gone, user=None, reason="A duplicate of nothing.")
    assert reader_api.get("/api/v1/watchlist/sources/gone-work/").json() == {"watching": True}
    assert reader_api.put("/api/v1/watchlist/sources/gone-work/").status_code == 404
    assert reader_api.delete("/api/v1/watchlist/sources/gone-work/").json() == {"watching": False}


@pytest.mark.parametrize(("body", "field", "code"), [
    ({"watching": False}, "watching", "invalid"),  # unwatching is a DELETE, not a watch made
    ({"watching": "no"}, "watching", "invalid"),
    ({"watchin": True}, "watchin", "unknown_field"),
])
def test_a_put_whose_body_says_other_than_watching_is_a_400_and_watches_nothing(
        reader_api: APIClient, body: dict[str, object], field: str, code: str) -> None:
    url = f"/api/v1/watchlist/pages/{make_page(title='Put body').slug}/"

    response = reader_api.put(url, body, format="json")

    assert response.status_code == 400, response.content
    assert response.json()["codes"] == {field: [code]}
    assert not Watch.objects.exists()


def test_a_put_sends_nothing_or_the_watch_as_read(reader_api: APIClient) -> None:
    url = f"/api/v1/watchlist/pages/{make_page(title='Put as read').slug}/"

    assert reader_api.put(url, {"watching": True}, format="json").json() == {"watching": True}
    assert reader_api.put(url, {}, format="json").json() == {"watching": True}
    assert reader_api.put(url, "x", content_type="text/plain").status_code == 415
    assert Watch.objects.count() == 1


def test_the_watchlist_lists_the_changes_to_what_the_client_watches(reader_api: APIClient) -> None:
    reader = reader_api.handler._force_user  # type: ignore[attr-defined]
    page, ignored, work = make_page(title="Listed"), make_page(title="Not listed"), make_source(short_name="ListedWork")
    watch_add(user=reader, target=page)
    watch_add(user=reader, target=work)
    page_save_revision(slug=page.slug, title=page.title, body="Edited.", comment="listed edit")
    page_save_revision(slug=ignored.slug, title=ignored.title, body="Edited.", comment="unlisted edit")
    source_update(source=work, fields={"notes": "Noted."}, summary="work note")
    response = reader_api.get(WATCHLIST)
    assert response.status_code == 200 and "private" in response["Cache-Control"]
    rows = response.json()["results"]
    assert [(r["kind"], r["action"], r["label"]) for r in rows] == [
        ("source", "edited", "ListedWork"), ("page", "edited", "Listed"), ("page", "created", "Listed")]
    assert rows[1]["summary"] == "listed edit" and rows[1]["user"] is None and rows[1]["url"] == page.get_absolute_url()
    assert reader_api.get(WATCHLIST, {"who": "me"}).status_code == 400


def test_the_watchlist_takes_the_filters_of_the_watchlist_page(reader_api: APIClient) -> None:
    reader = reader_api.handler._force_user  # type: ignore[attr-defined]
    editor = make_editor("api-filter-editor")
    page, work = make_page(title="Filtered"), make_source(short_name="FilteredWork")
    watch_add(user=reader, target=page)
    watch_add(user=reader, target=work)
    page_save_revision(slug=page.slug, title=page.title, body="Typo fixed.", user=editor, minor=True)
    page_save_revision(slug=page.slug, title=page.title, body="Rewritten.", user=reader, comment="mine")
    source_update(source=work, fields={"notes": "Noted."}, summary="work note", user=editor)

    def rows(**params: str) -> list[tuple[str, str, str]]:
        response = reader_api.get(WATCHLIST, params)
        assert response.status_code == 200, response.json()
        return [(r["kind"], r["action"], r["summary"]) for r in response.json()["results"]]

    assert rows(kind="source") == [("source", "edited", "work note")]
    assert [row for row in rows(kind="page", hidemine="1") if row[1] == "edited"] == [("page", "edited", "")]
    assert [row for row in rows(kind="page", hideminor="1") if row[1] == "edited"] == [("page", "edited", "mine")]
    assert rows(kind="page", latest="1") == rows(kind="page", latest="true") == [("page", "edited", "mine")]
    assert len(rows(kind="page", latest="false")) == len(rows(kind="page", latest="0")) == 3
    ChangeEvent.objects.filter(kind="source").update(created_at=timezone.now() - timedelta(days=2))
    assert [row[0] for row in rows(days="1")] == ["page", "page", "page"]
    assert sorted(row[0] for row in rows(days="3")) == ["page", "page", "page", "source"]

    for params in ({"kind": "bogus"}, {"days": "2"}, {"hideminor": "yes"}, {"latest": "2"}, {"user": "api-filter-editor"}):
        refused = reader_api.get(WATCHLIST, params)
        assert refused.status_code == 400, params
        assert set(refused.json()["errors"]) == set(params), refused.json()


def test_the_watchlist_runs_as_many_queries_however_long(django_assert_num_queries: DjangoAssertNumQueries) -> None:
    reader = make_reader("api-counter")
    client = APIClient()
    client.force_authenticate(reader)
    watch_add(user=reader, target=make_page(title="First watched"))
    with CaptureQueriesContext(connection) as few:
        assert client.get(WATCHLIST).status_code == 200
    count = len(few.captured_queries)
    for n in range(10):
        page = make_page(title=f"API watched {n}")
        watch_add(user=reader, target=page)
        watch_add(user=reader, target=make_source(short_name=f"ApiWork{n}"))
        page_save_revision(slug=page.slug, title=page.title, body="Again.")
    with django_assert_num_queries(count):
        assert len(client.get(WATCHLIST).json()["results"]) == 21


def test_the_watchlist_reads_updated_after_as_recent_changes_do(reader_api: APIClient,
                                                                django_assert_num_queries: DjangoAssertNumQueries) -> None:
    reader = reader_api.handler._force_user  # type: ignore[attr-defined]
    page, work = make_page(title="Polled"), make_source(short_name="PolledWork")
    watch_add(user=reader, target=page)
    watch_add(user=reader, target=work)
    source_update(source=work, fields={"notes": "Noted."}, summary="work note")
    page_save_revision(slug=page.slug, title=page.title, body="Edited.", comment="later edit")
    ChangeEvent.objects.update(created_at=datetime(2025, 1, 1, 0, 0, tzinfo=UTC))
    ChangeEvent.objects.filter(kind="page", action="edited").update(created_at=datetime(2025, 1, 1, 1, 0, tzinfo=UTC))

    def labels(**params: str) -> list[str]:
        response = reader_api.get(WATCHLIST, params)
        assert response.status_code == 200, response.json()
        return [f"{r['label']} {r['action']}" for r in response.json()["results"]]

    assert labels(updated_after="2025-01-01T00:30:00Z") == ["Polled edited"]
    assert labels(updated_after="2025-01-01T08:30:00") == ["Polled edited"]  # in the wiki's time zone
    assert labels(updated_after="2025-01-01T01:00:00Z") == []
    # the latest change to each item, kept when it was made after the moment
    assert labels(updated_after="2024-12-31T00:00:00Z", latest="1") == ["Polled edited", "PolledWork edited"]
    assert reader_api.get(WATCHLIST, {"updated_after": "soon"}).json()["codes"] == {"updated_after": ["invalid"]}
    with CaptureQueriesContext(connection) as unfiltered:
        reader_api.get(WATCHLIST)
    with django_assert_num_queries(len(unfiltered.captured_queries)):
        reader_api.get(WATCHLIST, {"updated_after": "2024-12-31T00:00:00Z"})
