"""Under a high rate, a process counts a client's API requests in Redis a block of numbers at a time."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from django.core.cache import caches
from rest_framework.test import APIClient

from wiki.api import throttles
from wiki.caching.backends import RedisCache

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/12")
NOW = time.time() // 60 * 60 + 1  # the start of a window

pytestmark = pytest.mark.django_db


@pytest.fixture
def counted(prefix: str, settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The cache in Redis; the blocks each round trip to count took, in order."""
    settings.CACHES = {"default": {"BACKEND": "wiki.caching.backends.RedisCache", "LOCATION": REDIS_URL,
                                   "KEY_PREFIX": prefix}}
    backend = caches["default"]
    assert isinstance(backend, RedisCache)
    throttles.blocks.clear()
    sizes: list[int] = []
    real_count = RedisCache.count

    def count(self: RedisCache, key: str, timeout: int, by: int = 1) -> int:
        sizes.append(by)
        return real_count(self, key, timeout, by)

    monkeypatch.setattr(RedisCache, "count", count)
    # Every request of a test in one window, however long it takes: none is counted in the next one.
    monkeypatch.setattr(throttles.WindowCounting, "timer", lambda self: NOW)
    yield sizes
    throttles.blocks.clear()


def _rate(settings: Any, anon: str) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": anon}}


def test_a_high_rate_is_counted_a_block_at_a_time_and_each_answer_says_what_is_left(counted: list[int],
                                                                                    settings: Any) -> None:
    _rate(settings, "2560/minute")  # blocks of 10
    api = APIClient()

    answers = [api.get("/api/v1/pages/") for _ in range(25)]

    assert [a.status_code for a in answers] == [200] * 25
    assert counted == [10, 10, 10]  # three round trips for 25 requests
    assert [int(a["RateLimit-Remaining"]) for a in answers] == list(range(2559, 2534, -1))


def test_a_low_rate_is_counted_one_request_at_a_time(counted: list[int], settings: Any) -> None:
    _rate(settings, "255/minute")
    api = APIClient()

    assert [api.get("/api/v1/pages/")["RateLimit-Remaining"] for _ in range(3)] == ["254", "253", "252"]
    assert counted == [1, 1, 1]


def test_numbers_another_process_took_count_as_sent_so_no_more_than_the_rate_goes_through(
    counted: list[int], settings: Any, prefix: str
) -> None:
    _rate(settings, "512/minute")  # blocks of 2
    api = APIClient()
    window = int(NOW // 60)
    # Other servers counted 508 of the client's requests this window.
    redis.Redis.from_url(REDIS_URL).set(f"{prefix}:1:throttle_anon_127.0.0.1:{window}", 508)

    statuses = [api.get("/api/v1/pages/").status_code]  # 509 of the block 509-510
    throttles.blocks.clear()  # another process: its block is 511-512, this one's 510 unused
    statuses += [api.get("/api/v1/pages/").status_code for _ in range(3)]  # 511, 512, then 513 of 513-514

    assert statuses == [200, 200, 200, 429]
    assert counted == [2, 2, 2]
