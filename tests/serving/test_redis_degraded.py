"""A Redis that hangs, refuses writes or comes back: every thread of a process learns it from one call, the outage is
logged once, no request fails, and nothing that a write Redis did not take should have replaced is read from it
afterwards."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import redis
from django.conf import settings
from django.core.cache import caches
from django.test import Client, override_settings

from tests.factories import make_editor, make_page
from tests.serving.redis_proxy import RedisProxy
from wiki.caching import backends, version_row, versions
from wiki.caching.backends import RedisCache, ReusedClients
from wiki.services.pages import page_save_revision

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
TIMEOUTS = {"socket_connect_timeout": 0.3, "socket_timeout": 0.3}


def _outages(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage().split(" (")[0] for r in caplog.records if r.name == "wiki.caching.backends"]


def test_a_redis_that_hangs_makes_one_thread_wait_and_spares_the_others(
        proxy: RedisProxy, prefix: str, caplog: pytest.LogCaptureFixture) -> None:
    # Django makes each thread a backend of its own: eight threads, eight backends.
    own = [RedisCache(proxy.url, {"KEY_PREFIX": prefix, "OPTIONS": TIMEOUTS}) for _ in range(8)]
    own[0].set("kept", 1)
    proxy.freeze()
    with caplog.at_level(logging.WARNING, logger="wiki.caching.backends"):
        started = time.monotonic()
        assert own[0].get("kept", "missed") == "missed"  # waits for the timeout
        assert time.monotonic() - started >= 0.25

        def timed(backend: RedisCache) -> float:
            started = time.monotonic()
            assert backend.get("kept", "missed") == "missed"
            return time.monotonic() - started

        with ThreadPoolExecutor(8) as pool:
            waits = list(pool.map(timed, own))
    assert max(waits) < 0.1  # the other threads know already: none waits for its own timeout
    assert _outages(caplog) == ["Redis cannot be reached"]  # once for the process

    proxy.thaw()
    own[3].availability.retry_now()
    assert own[5].get("kept") == 1


@pytest.mark.django_db
def test_the_outage_ends_once_for_the_process_and_moves_no_version(proxy: RedisProxy, prefix: str) -> None:
    cache = {"default": {"BACKEND": "wiki.caching.backends.RedisCache", "LOCATION": proxy.url, "KEY_PREFIX": prefix,
                         "OPTIONS": TIMEOUTS}}
    recovered: list[int] = []
    backends.on_recovery(lambda: recovered.append(1))
    barrier = threading.Barrier(10)

    def read(_: int) -> None:
        backend = caches["default"]  # each thread's own, as Django makes them
        assert isinstance(backend, RedisCache)
        barrier.wait()
        for _ in range(20):
            backend.get("anything")
            backend.availability.retry_now()

    try:
        with override_settings(CACHES=cache), ThreadPoolExecutor(10) as pool:
            before = versions.current().number  # read from PostgreSQL and copied to Redis
            proxy.cut()
            list(pool.map(read, range(10)))  # every thread meets the outage
            proxy.start()
            list(pool.map(read, range(10)))  # and every thread meets Redis again
            assert recovered == [1]
            assert versions.current().number == before == version_row.read().content
    finally:
        backends._RECOVERY.pop()


# As Redis words them (redis-py picks the class from the first word, which it strips).
_MESSAGES = {redis.exceptions.OutOfMemoryError: "command not allowed when used memory > 'maxmemory'.",
             redis.exceptions.ReadOnlyError: "You can't write against a read only replica."}


class _RefusingWrites(redis.Redis):
    """A client of a Redis that answers reads and refuses every write, as a full one under noeviction does (or a
    replica after a failover: ``error`` is then ReadOnlyError)."""

    error: type[redis.exceptions.ResponseError] = redis.exceptions.OutOfMemoryError
    refusing = True
    _WRITES = frozenset({"SET", "MSET", "INCR", "EXPIRE", "DEL", "EVAL", "PERSIST"})

    def execute_command(self, *args: Any, **options: Any) -> Any:
        if self.refusing and str(args[0]).upper() in self._WRITES:
            raise self.error(_MESSAGES[self.error])
        return super().execute_command(*args, **options)  # type: ignore[no-untyped-call]


@pytest.fixture
def refusing(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[_RefusingWrites]]:
    monkeypatch.setattr(_RefusingWrites, "refusing", True)
    yield _RefusingWrites
    backends.availability(REDIS_URL).answered()  # for the next test, this process has seen Redis answer


def _refusing_backend(prefix: str, client: type[redis.Redis]) -> RedisCache:
    backend = RedisCache(REDIS_URL, {"KEY_PREFIX": prefix, "OPTIONS": TIMEOUTS})
    backend._cache._client = client  # type: ignore[attr-defined]  # Django's, absent from the stubs
    return backend


@pytest.mark.parametrize("error", [redis.exceptions.OutOfMemoryError, redis.exceptions.ReadOnlyError])
def test_a_redis_that_refuses_writes_is_left_alone_until_it_takes_one_again(
        prefix: str, refusing: type[_RefusingWrites], error: type[redis.exceptions.ResponseError],
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(refusing, "error", error)
    RedisCache(REDIS_URL, {"KEY_PREFIX": prefix}).set_many({"kept": "before", "untouched": "as it was"})
    backend = _refusing_backend(prefix, refusing)
    with caplog.at_level(logging.WARNING, logger="wiki.caching.backends"):
        backend.set("kept", "after")  # refused: no error
        backend.delete("kept")
        assert backend.count("hits", 30) == 1
        # The value a refused write should have replaced is not read back, however long the refusal lasts.
        assert backend.get("kept", "missed") == "missed"
        backend.availability.retry_now()
        assert backend.get("kept", "missed") == "missed"
        assert not backend.reachable
    assert _outages(caplog) == ["Redis refuses commands"]

    refusing.refusing = False
    backend.availability.retry_now()
    assert backend.get("untouched") == "as it was" and backend.reachable
    assert backend.get("kept") is None  # nor once Redis takes writes again


@pytest.mark.django_db
def test_a_log_out_redis_did_not_take_is_not_read_back_from_it_when_it_answers_again(
        proxy: RedisProxy, prefix: str) -> None:
    cache = {"default": {"BACKEND": "wiki.caching.backends.RedisCache", "LOCATION": proxy.url, "KEY_PREFIX": prefix,
                         "OPTIONS": TIMEOUTS}}
    page = make_page(slug="leaving", title="Leaving")
    editor = make_editor("leaving-editor")
    with override_settings(CACHES=cache, SESSION_ENGINE="django.contrib.sessions.backends.cached_db"):
        client = Client()
        client.force_login(editor)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        assert "leaving-editor" in client.get(page.get_absolute_url()).content.decode()

        proxy.cut()
        client.logout()  # the session's row is deleted; Redis does not hear of it
        proxy.start()
        backend = caches["default"]
        assert isinstance(backend, RedisCache)
        backend.availability.retry_now()
        kept = Client()  # a copy of the cookie, kept elsewhere
        kept.cookies[settings.SESSION_COOKIE_NAME] = cookie
        assert "leaving-editor" not in kept.get(page.get_absolute_url()).content.decode()


@pytest.mark.django_db
def test_pages_are_served_and_edits_shown_while_redis_refuses_writes(
        prefix: str, refusing: type[_RefusingWrites], monkeypatch: pytest.MonkeyPatch) -> None:
    cache = {"default": {"BACKEND": "wiki.caching.backends.RedisCache", "LOCATION": REDIS_URL, "KEY_PREFIX": prefix,
                         "OPTIONS": TIMEOUTS}}
    page = make_page(slug="full", title="Full", body="The first sentence.")
    editor = make_editor()
    versions.bump()  # committed, as after the requests that saved them
    versions.bump_accounts()
    with override_settings(CACHES=cache, WIKI_VERSION_CHECK_SECONDS=60):
        reader = Client()
        assert "The first sentence." in reader.get(page.get_absolute_url()).content.decode()
        backend = caches["default"]
        assert isinstance(backend, RedisCache)
        copied = backend.get(versions.VERSION_KEY)
        clients = backend._cache
        assert isinstance(clients, ReusedClients)
        monkeypatch.setattr(clients, "_client", refusing)
        clients._clients.clear()

        signed_in = Client()
        signed_in.force_login(editor)
        assert signed_in.get(page.get_absolute_url()).status_code == 200
        page_save_revision(slug="full", title="Full", body="The second sentence.", base_revision=1)
        versions.bump()  # its commit: Redis refuses the new version's copy
        html = reader.get(page.get_absolute_url()).content.decode()
        assert "The second sentence." in html and "The first sentence." not in html
        health = Client().get("/health/")  # the server serves: degraded, not out of the load balancer's rotation
        assert health.status_code == 200 and health.json()["cache"] == "degraded"
        assert Client().get("/health/?strict=1").status_code == 503
        # The move is in PostgreSQL, which every server reads: Redis's copy could not take it.
        assert version_row.read().content > copied
        assert redis.Redis.from_url(REDIS_URL).get(f"{prefix}:1:{versions.VERSION_KEY}") == str(copied).encode()
