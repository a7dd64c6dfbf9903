"""Walking a list by cursor (``?after=``, what ``next`` sends): every row once while others edit, the same queries at
any depth, and a cursor that is not one refused."""

from __future__ import annotations

import base64
import json
from collections import Counter
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import make_page
from tests.queries import query_names
from wiki.caching import versions
from wiki.models import ChangeEvent, OpenQuestion, Source
from wiki.models.questions import QuestionPriority
from wiki.services.deletion import source_delete

pytestmark = pytest.mark.django_db

SOURCES = "/api/v1/sources/"


def _works(count: int, *, prefix: str = "walk", year: Callable[[int], int | None] = lambda n: 2020 + n % 3,
           name: Callable[[int], str] = lambda n: f"Walk {n:03d}") -> list[Source]:
    works = [Source(slug=f"{prefix}-{n}", short_name=name(n), title=f"{prefix} work {n}", year=year(n)) for n in range(count)]
    for work in works:
        work.derive_keys()
    return Source.objects.bulk_create(works)


def _walk(api: APIClient, url: str, *, key: str = "slug",
          between: Callable[[int, list[str]], None] | None = None) -> list[str]:
    """Every row's ``key``, following ``next`` from ``url``; ``between(pages read, rows seen)`` runs after each page."""
    seen: list[str] = []
    pages = 0
    next_url: str | None = url
    while next_url:
        response = api.get(next_url)
        assert response.status_code == 200, response.content[:300]
        body = response.json()
        seen += [str(row[key]) for row in body["results"]]
        next_url = body["next"]
        pages += 1
        if between is not None:
            between(pages, seen)
    return seen


def test_following_next_from_a_lists_address_pages_by_cursor(api: APIClient) -> None:
    _works(5)

    first = api.get(SOURCES, {"page_size": "2", "q": "walk"}).json()
    second = api.get(first["next"]).json()

    assert first["next"].startswith("http://testserver/api/v1/sources/?after=") and first["previous"] is None
    assert "page=" not in first["next"] and "page_size=2" in first["next"] and "q=walk" in first["next"]
    assert second["count"] == first["count"] == 5 and second["previous"] is None
    assert [row["slug"] for row in first["results"] + second["results"]] == ["walk-0", "walk-1", "walk-2", "walk-3"]
    # A page read by number links by number, as it always did.
    numbered = api.get(SOURCES, {"page_size": "2", "q": "walk", "page": "2"}).json()
    assert numbered["next"] == "http://testserver/api/v1/sources/?page=3&page_size=2&q=walk"
    assert numbered["previous"] == "http://testserver/api/v1/sources/?page_size=2&q=walk"


def test_a_walk_by_cursor_sees_every_work_once_while_works_are_added_and_deleted(api: APIClient) -> None:
    works = _works(40)
    deleted: set[str] = set()
    deleted_unseen: list[str] = []
    added_ahead: list[str] = []

    def edit(pages: int, seen: list[str]) -> None:
        if pages > 4:
            return
        # one work already read and one not yet read leave the list; one is added before the position, one after it
        behind = next(w for w in works if w.slug in seen and w.slug not in deleted)
        ahead = next(w for w in reversed(works) if w.slug not in seen and w.slug not in deleted)
        for work in (behind, ahead):
            source_delete(source=work, user=None, reason="Walk test.")
            deleted.add(work.slug)
        deleted_unseen.append(ahead.slug)
        _works(1, prefix=f"walk-before-{pages}", name=lambda n: f"Walk 000 before {pages}")
        _works(1, prefix=f"walk-ahead-{pages}", name=lambda n: f"Walk 999 ahead {pages}")
        added_ahead.append(f"walk-ahead-{pages}-0")

    seen = _walk(api, f"{SOURCES}?q=walk&page_size=6", between=edit)

    counted = Counter(seen)
    assert max(counted.values()) == 1, [slug for slug, n in counted.items() if n > 1]
    # every work there from the start to the end of the walk, and every work added after the position, is seen
    assert set(seen) >= {w.slug for w in works if w.slug not in deleted_unseen} | set(added_ahead)
    assert not set(seen) & set(deleted_unseen)
    assert not any(slug.startswith("walk-before-") for slug in seen)


def test_the_same_edits_while_walking_by_page_number_skip_a_work(api: APIClient) -> None:
    """Why the cursor: by page number, a row deleted behind the reader moves another onto a page already read."""
    works = _works(20)

    def edit(pages: int, seen: list[str]) -> None:
        if pages == 1:
            source_delete(source=works[0], user=None, reason="Walk test.")

    seen = _walk(api, f"{SOURCES}?q=walk&page_size=5&page=1", between=edit)

    assert len(seen) == 19 and "walk-5" not in seen


@pytest.mark.parametrize("ordering", ["short_name", "-short_name", "year", "-year", "created_at", "-updated_at", "title"])
def test_a_walk_by_cursor_reads_the_rows_of_the_numbered_pages_in_their_order(api: APIClient, ordering: str) -> None:
    # ties on the name, on the year, and works without a year (last, both ways)
    _works(23, name=lambda n: f"Tied {n % 4}", year=lambda n: None if n % 5 == 0 else 2020 + n % 2)
    query = f"q=walk&ordering={ordering}&page_size=4"

    by_cursor = _walk(api, f"{SOURCES}?{query}")
    by_number = _walk(api, f"{SOURCES}?{query}&page=1")

    assert by_cursor == by_number
    assert sorted(by_cursor) == sorted(f"walk-{n}" for n in range(23))


def test_questions_walk_by_cursor_in_the_queues_rank_order(api: APIClient) -> None:
    now = timezone.now()
    priorities = [QuestionPriority.HIGH, QuestionPriority.NORMAL, QuestionPriority.LOW]
    OpenQuestion.objects.bulk_create(
        OpenQuestion(title=f"Walked question {n}", priority=priorities[n % 3], created_at=now - timedelta(minutes=n % 4))
        for n in range(17))
    query = "/api/v1/questions/?ordering=priority,created_at&page_size=3"

    by_cursor = _walk(api, query, key="id")

    assert by_cursor == _walk(api, f"{query}&page=1", key="id")
    assert len(set(by_cursor)) == OpenQuestion.objects.count()


def test_claims_and_changes_walk_by_cursor(api: APIClient) -> None:
    for n in range(3):
        make_page(title=f"Walked page {n}", body="## 关键要点\n\n" + "".join(f"- Claim {n}.{k} is stated.\n" for k in range(4)))

    for url, key in (("/api/v1/claims/?page_size=5", "id"), ("/api/v1/changes/?page_size=2", "id"),
                     ("/api/v1/pages/?page_size=2", "slug")):
        walked = _walk(api, url, key=key)
        assert walked == _walk(api, f"{url}&page=1", key=key), url
        assert len(walked) == len(set(walked)) == api.get(url).json()["count"], url


def test_a_cursor_past_the_last_row_reads_an_empty_last_page(api: APIClient) -> None:
    works = _works(3)
    body = api.get(SOURCES, {"q": "walk", "page_size": "2"}).json()
    for work in works[2:]:
        source_delete(source=work, user=None, reason="Walk test.")

    last = api.get(body["next"])

    assert last.status_code == 200 and last.json()["results"] == [] and last.json()["next"] is None


@pytest.mark.parametrize(("url", "queries"), [
    (SOURCES + "?q=walk&page_size=10",
     ["SELECT wiki_source", "COUNT wiki_source", "SELECT wiki_source", "SELECT wiki_classification", "SELECT wiki_component"]),
    ("/api/v1/questions/?ordering=priority,created_at&page_size=10",
     ["COUNT wiki_openquestion", "SELECT wiki_openquestion", "SELECT wiki_claim", "SELECT wiki_source"]),
])
def test_a_page_by_cursor_runs_the_same_queries_at_any_depth(api: APIClient, django_assert_num_queries: Callable[..., object],
                                                             url: str, queries: list[str]) -> None:
    _works(400)
    OpenQuestion.objects.bulk_create(OpenQuestion(title=f"Deep question {n}", priority=QuestionPriority.NORMAL)
                                     for n in range(400))
    links = [url]
    while len(links) < 40:
        links.append(api.get(links[-1]).json()["next"])

    for link in (links[0], links[1], links[20], links[39]):
        versions.bump()  # the answer cached before is stale: count what it costs to make
        with django_assert_num_queries(len(queries)) as captured:  # type: ignore[attr-defined]
            response = api.get(link)
        assert len(response.json()["results"]) == 10
        assert query_names(captured) == queries, link


def _forged(cursor: str) -> str:
    """The cursor with its position moved, its signature kept."""
    payload, signature = cursor.split(".")
    data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    data["v"][-1] = 1
    moved = base64.urlsafe_b64encode(json.dumps(data, separators=(",", ":")).encode()).decode().rstrip("=")
    return f"{moved}.{signature}"


def test_a_cursor_that_is_not_one_is_a_400_that_changes_nothing(api: APIClient) -> None:
    _works(5)
    cursor = api.get(SOURCES, {"q": "walk", "page_size": "2"}).json()["next"].split("after=")[1].split("&")[0]
    before = (list(Source.objects.order_by("pk").values_list("pk", "updated_at")), ChangeEvent.objects.count())

    refused = {
        "forged": api.get(SOURCES, {"after": _forged(cursor), "q": "walk"}),
        "not a cursor": api.get(SOURCES, {"after": "not-a-cursor"}),
        "cut short": api.get(SOURCES, {"after": cursor[:-3]}),
        "control characters": api.get(SOURCES, {"after": "\x00\x01"}),
        "another order": api.get(SOURCES, {"after": cursor, "ordering": "-short_name"}),
        "another list": api.get("/api/v1/claims/", {"after": cursor}),
        "with a page number": api.get(SOURCES, {"after": cursor, "page": "2"}),
        "empty": api.get(SOURCES, {"after": ""}),
        "sent twice": api.get(f"{SOURCES}?after={cursor}&after={cursor}"),
        "to findings": api.get("/api/v1/findings/", {"after": cursor}),
    }

    for name, response in refused.items():
        assert response.status_code == 400, name
        body = response.json()
        assert set(body) == {"detail", "code", "errors", "codes"} and list(body["errors"]) == ["after"], name
    assert {name: response.json()["code"] for name, response in refused.items()} == {
        "forged": "invalid_cursor", "not a cursor": "invalid_cursor", "cut short": "invalid_cursor",
        "control characters": "invalid_cursor", "another order": "invalid_cursor", "another list": "invalid_cursor",
        "with a page number": "page_and_cursor", "empty": "blank", "sent twice": "repeated_parameter",
        "to findings": "unknown_parameter",
    }
    assert "changed" in refused["forged"].json()["detail"] and "another order" in refused["another order"].json()["detail"]
    assert (list(Source.objects.order_by("pk").values_list("pk", "updated_at")), ChangeEvent.objects.count()) == before
    # the cursor as given still reads its page
    assert api.get(SOURCES, {"after": cursor, "q": "walk", "page_size": "2"}).status_code == 200
