"""The versions' truth is a row of PostgreSQL: a move that never reached Redis is keyed by on every server within
``WIKI_VERSION_CHECK_SECONDS``, for one query a period per process, not one a request."""

from __future__ import annotations

import os
import time

import pytest
from pytest_django import DjangoAssertNumQueries, Settings

from wiki.caching import version_row, versions
from wiki.caching.backends import RedisCache

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")

pytestmark = pytest.mark.django_db


def test_a_move_redis_never_heard_of_is_keyed_by_within_the_check_period(
        prefix: str, settings: Settings, django_assert_num_queries: DjangoAssertNumQueries) -> None:
    settings.CACHES = {"default": {"BACKEND": "wiki.caching.backends.RedisCache", "LOCATION": REDIS_URL,
                                   "KEY_PREFIX": prefix}}
    settings.WIKI_VERSION_CHECK_SECONDS = 1
    before = versions.current().number  # read from PostgreSQL, copied to Redis
    read_at = time.monotonic()
    moved = version_row.move("content")  # an edit through a server that could not reach Redis
    assert moved is not None
    with django_assert_num_queries(0):
        while time.monotonic() - read_at < 0.5:
            assert versions.current().number == before  # trusted for the period: from memory
    time.sleep(max(0.0, read_at + 1.05 - time.monotonic()))
    with django_assert_num_queries(1):  # the row, read once
        assert [versions.current().number for _ in range(100)] == [moved.content] * 100
    # Redis's copy is raised, so every server tracking it keys by the move at once.
    assert RedisCache(REDIS_URL, {"KEY_PREFIX": prefix}).get(versions.VERSION_KEY) == moved.content


def test_without_redis_a_process_reads_the_row_once_a_period_and_its_own_moves_at_once(
        settings: Settings, django_assert_max_num_queries: DjangoAssertNumQueries) -> None:
    settings.CACHES = {"default": {"BACKEND": "wiki.caching.backends.RedisCache", "LOCATION": "redis://127.0.0.1:1/0",
                                   "KEY_PREFIX": "closed"}}
    settings.WIKI_VERSION_CHECK_SECONDS = 60
    with django_assert_max_num_queries(1):
        numbers = {versions.current().number for _ in range(100)}
    assert numbers == {version_row.read().content}

    versions.bump()  # this process's own edit, once committed
    with django_assert_max_num_queries(0):
        after = versions.current().number
    assert after == version_row.read().content > numbers.pop()
