"""The Redis cache backend of production, against the machine's Redis."""

from __future__ import annotations

import os
import threading

import pytest
import redis

from wiki.caching.backends import RedisCache

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/12")


@pytest.fixture
def backend() -> RedisCache:
    redis.Redis.from_url(REDIS_URL).flushdb()
    return RedisCache(REDIS_URL, {"KEY_PREFIX": "test"})


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
