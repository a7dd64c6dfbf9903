"""What a logged-in request reads besides the page, kept in each worker's memory until Redis says it changed: its
session and whether the reader watches what they read."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import caches

from tests.factories import make_editor, make_page
from wiki.caching import watches
from wiki.caching.backends import RedisCache
from wiki.caching.sessions import SessionStore

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/12")

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_cache(prefix: str, settings: Any) -> Iterator[RedisCache]:
    settings.CACHES = {
        "default": {"BACKEND": "wiki.caching.backends.RedisCache", "LOCATION": REDIS_URL, "KEY_PREFIX": prefix}
    }
    settings.SESSION_ENGINE = "wiki.caching.sessions"
    default = caches["default"]
    assert isinstance(default, RedisCache)
    yield default


@pytest.fixture
def round_trips(redis_cache: RedisCache, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The keys this process reads from Redis with ``get``."""
    reads: list[Any] = []
    real_get = redis_cache.get

    def counted(key: Any, *args: Any, **kwargs: Any) -> Any:
        reads.append(key)
        return real_get(key, *args, **kwargs)

    monkeypatch.setattr(redis_cache, "get", counted)
    return reads


def test_a_session_is_read_from_memory_until_a_server_logs_it_out(
    prefix: str, round_trips: list[Any], django_assert_num_queries: Any
) -> None:
    editor = make_editor("tracked-session")
    made = SessionStore()
    made["_auth_user_id"] = str(editor.pk)
    made.create()
    assert SessionStore(made.session_key)["_auth_user_id"] == str(editor.pk)  # read from Redis, then kept
    round_trips.clear()
    with django_assert_num_queries(0):
        assert [SessionStore(made.session_key)["_auth_user_id"] for _ in range(3)] == [str(editor.pk)] * 3
    assert round_trips == []

    # Another server's worker logs the session out: the next read here, after any round trip that server made, finds
    # it gone.
    other = RedisCache(REDIS_URL, {"KEY_PREFIX": prefix})
    other.delete(SessionStore(made.session_key).cache_key)
    SessionStore.get_model_class().objects.filter(session_key=made.session_key).delete()
    other.get("unrelated")
    assert "_auth_user_id" not in SessionStore(made.session_key).load()


def test_a_request_changing_its_session_changes_no_other_requests_copy(round_trips: list[Any]) -> None:
    made = SessionStore()
    made["messages"] = ["first"]
    made.create()
    first = SessionStore(made.session_key)
    first["messages"].append("changed, not saved")
    assert SessionStore(made.session_key)["messages"] == ["first"]


def test_a_session_saved_in_this_process_is_read_back_at_once(round_trips: list[Any]) -> None:
    made = SessionStore()
    made["step"] = 1
    made.create()
    assert SessionStore(made.session_key)["step"] == 1
    changed = SessionStore(made.session_key)
    changed["step"] = 2
    changed.save()  # whatever the timing of Redis's message about it
    assert SessionStore(made.session_key)["step"] == 2
    changed.delete()
    assert "step" not in SessionStore(made.session_key).load()


def test_whether_a_reader_watches_is_read_from_memory_until_it_changes(
    prefix: str, round_trips: list[Any], django_assert_num_queries: Any
) -> None:
    from wiki.services.watches import watch_add

    page, editor = make_page(title="Tracked watch"), make_editor("tracked-watcher")
    assert watches.is_watching(editor.pk, "page", page.pk) is False  # asked of the database, then kept
    watches.is_watching(editor.pk, "page", page.pk)
    round_trips.clear()
    with django_assert_num_queries(0):
        assert [watches.is_watching(editor.pk, "page", page.pk) for _ in range(3)] == [False] * 3
    assert round_trips == []

    watch_add(user=editor, target=page)  # in this process, whatever the timing of Redis's message
    assert watches.is_watching(editor.pk, "page", page.pk) is True
    # Another server's worker unwatches it there: the next read here, after any round trip that server made, sees it.
    other = RedisCache(REDIS_URL, {"KEY_PREFIX": prefix})
    other.set(f"wiki:watching:{editor.pk}:page:{page.pk}", False)
    other.get("unrelated")
    assert watches.is_watching(editor.pk, "page", page.pk) is False


def test_a_copy_is_trusted_after_one_poll_of_the_socket_until_a_message_comes(
    prefix: str, redis_cache: RedisCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = redis_cache.make_key("wiki:watching:polled")
    tracker = redis_cache.tracker("wiki:watching:")
    reads: list[str] = []

    def read() -> Any:
        reads.append(key)
        return redis_cache.get("wiki:watching:polled")

    redis_cache.set("wiki:watching:polled", True)
    assert tracker.get([key], read) is True  # connects, reads Redis, keeps the copy
    assert tracker.get([key], read) is True
    assert tracker._connection is not None
    checks: list[float] = []
    real_can_read = tracker._connection.can_read

    def counted_can_read(timeout: float = 0) -> bool:
        checks.append(timeout)
        return bool(real_can_read(timeout))

    monkeypatch.setattr(tracker._connection, "can_read", counted_can_read)
    reads.clear()
    assert [tracker.get([key], read) for _ in range(3)] == [True] * 3
    # nothing waited in the socket: redis-py's reading of it (a timeout set and reset, a recv raising) was not needed
    assert reads == [] and checks == []

    # Another server's write: its message is read, and the copy dropped.
    other = RedisCache(REDIS_URL, {"KEY_PREFIX": prefix})
    other.set("wiki:watching:polled", False)
    other.get("unrelated")
    assert tracker.get([key], read) is False
    assert reads == [key] and checks
