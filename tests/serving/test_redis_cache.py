"""The Redis cache backend of production, against the machine's Redis."""

from __future__ import annotations

import os
import threading
from typing import Any

import pytest
import redis
from pytest_django import DjangoAssertNumQueries

from wiki.caching.backends import RedisCache

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/12")


@pytest.fixture
def backend(prefix: str) -> RedisCache:
    return RedisCache(REDIS_URL, {"KEY_PREFIX": prefix})


def test_count_starts_at_one_adds_one_and_expires(backend: RedisCache) -> None:
    assert [backend.count("hits", 30) for _ in range(3)] == [1, 2, 3]
    assert backend.get("hits") == 3
    ttl = redis.Redis.from_url(REDIS_URL).ttl(backend.make_and_validate_key("hits"))
    assert 0 < ttl <= 30


def test_counts_from_many_threads_are_all_kept(backend: RedisCache) -> None:
    def hit() -> None:
        for _ in range(50):
            backend.count("shared", 30)

    threads = [threading.Thread(target=hit) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert backend.get("shared") == 200


def test_one_client_serves_every_call(backend: RedisCache) -> None:
    backend.set("a", 1)
    backend.get("a")
    assert backend._cache.get_client(write=True) is backend._cache.get_client(write=True)
    assert backend.get_many(["a", "missing"]) == {"a": 1}


def test_a_tracked_copy_is_read_without_a_round_trip_until_another_client_writes(
        backend: RedisCache, prefix: str) -> None:
    other = RedisCache(REDIS_URL, {"KEY_PREFIX": prefix})  # another server's client
    backend.set("content:version", 1, timeout=None)
    tracker = backend.tracker("content:")
    reads: list[int] = []

    def read() -> int:
        reads.append(1)
        return int(backend.get("content:version"))

    key = [backend.make_key("content:version")]
    assert [tracker.get(key, read) for _ in range(3)] == [1, 1, 1]
    assert len(reads) == 1

    other.incr("content:version")
    # Redis sends the message before it sleeps after the write: any later round trip, such as an editor's
    # commit or the next request's, finds it sent.
    other.get("unrelated")
    assert tracker.get(key, read) == 2 and len(reads) == 2
    other.set("unrelated", 1)
    assert tracker.get(key, read) == 2 and len(reads) == 2


def test_without_its_connection_a_tracker_keeps_no_copy() -> None:
    tracker = RedisCache("redis://127.0.0.1:1/0", {"KEY_PREFIX": "test"}).tracker("content:")
    values = iter([1, 2, 3])
    assert [tracker.get(["k"], lambda: next(values)) for _ in range(3)] == [1, 2, 3]


@pytest.mark.django_db
def test_the_accounts_version_is_read_from_the_tracked_copy_until_another_server_moves_it(
        backend: RedisCache, prefix: str, settings: Any, monkeypatch: pytest.MonkeyPatch,
        django_assert_num_queries: DjangoAssertNumQueries) -> None:
    from django.core.cache import caches

    from wiki.caching import versions

    settings.CACHES = {"default": {"BACKEND": "wiki.caching.backends.RedisCache", "LOCATION": REDIS_URL,
                                   "KEY_PREFIX": prefix}}
    settings.WIKI_VERSION_CHECK_SECONDS = 60
    default = caches["default"]
    reads: list[Any] = []
    real_get_many = default.get_many

    def counted_get_many(keys: Any, *args: Any) -> Any:
        reads.append(keys)
        return real_get_many(keys, *args)

    monkeypatch.setattr(default, "get_many", counted_get_many)

    first = versions.accounts_version()  # read from PostgreSQL, copied to Redis, then read and kept
    assert versions.accounts_version() == first
    reads.clear()
    with django_assert_num_queries(0):
        assert [versions.accounts_version() for _ in range(3)] == [first] * 3
    assert reads == []  # from memory: no round trip per logged-in request

    other = RedisCache(REDIS_URL, {"KEY_PREFIX": prefix})  # another server's client: a password changed there
    other.raise_numbers({versions.ACCOUNTS_KEY: first + 1})
    other.get("unrelated")
    assert versions.accounts_version() == first + 1

    versions.bump_accounts()  # a write in this process is seen by its next read, whatever the message's timing
    assert versions.accounts_version() > first + 1
