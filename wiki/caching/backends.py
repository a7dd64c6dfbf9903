"""Django's Redis cache with its clients built once, which serves on without Redis.

Django's backend builds a new ``redis.Redis`` client (with its table of response callbacks) for every
cache call, which costs more than the round trip it makes; every request makes a few. A client is safe
to share between threads (its connection pool hands each command a connection), so one is kept per pool.

Redis holds nothing the wiki cannot make again, so while it cannot be reached every read is a miss and every
write is dropped: pages are rendered from PostgreSQL, sessions read from their table, the API throttles let
requests through. The versions that key every entry cannot be read then either, so each request starts one of its
own from the clock and no entry is shared; and the writes to the wiki made meanwhile could not move them. So the
first time a process reaches Redis again, it moves both versions (:func:`on_recovery`) before it reads anything, and
no entry from before the outage is served after it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient

from wiki.caching.tracking import Tracker


class ReusedClients(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # _get_connection_pool_index, _get_connection_pool and _client are Django's, absent from the stubs.
        index = self._get_connection_pool_index(write)  # type: ignore[attr-defined]
        client = self._clients.get(index)
        if client is None:
            pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
            client = self._clients[index] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
        return client


logger = logging.getLogger(__name__)

# What a Redis that cannot be reached raises (a refused or broken connection, a timeout).
UNREACHABLE = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
RETRY_SECONDS = 2.0
# Called by the first call that reaches Redis again after an outage (every thread has a backend of its own).
_RECOVERY: list[Callable[[], None]] = []


def on_recovery(callback: Callable[[], None]) -> None:
    """Have ``callback`` called whenever Redis answers again after it could not be reached."""
    if callback not in _RECOVERY:
        _RECOVERY.append(callback)


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusedClients
        self._trackers: dict[str, Tracker] = {}
        self._outage = threading.Event()
        self._retry_at = 0.0

    def _soft(self, call: Callable[[], Any], default: Any) -> Any:
        """``call()``, or ``default`` when Redis cannot be reached; after an outage, ``on_recovery`` first. Once a
        call failed, the calls of the next ``RETRY_SECONDS`` do not try (a Redis that drops packets would make each
        wait for its timeout)."""
        if self._outage.is_set() and time.monotonic() < self._retry_at:
            return default
        try:
            result = call()
        except UNREACHABLE as error:
            self._retry_at = time.monotonic() + RETRY_SECONDS
            if not self._outage.is_set():
                self._outage.set()
                logger.warning("Redis cannot be reached (%s): serving without the shared cache", error)
            return default
        if self._outage.is_set():
            self._outage.clear()
            logger.warning("Redis answers again: moving the content versions past what was cached before")
            for callback in _RECOVERY:
                callback()
            # What was read came before the callbacks moved the versions.
            return self._soft(call, default)
        return result

    @property
    def reachable(self) -> bool:
        """Whether the last call reached Redis."""
        return not self._outage.is_set()

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self._soft(lambda: super(RedisCache, self).get(key, default, version), default)

    def get_many(self, keys: Any, version: int | None = None) -> dict[str, Any]:
        found: dict[str, Any] = self._soft(lambda: super(RedisCache, self).get_many(keys, version), {})
        return found

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        self._soft(lambda: super(RedisCache, self).set(key, value, timeout, version), None)

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        added: bool = self._soft(lambda: super(RedisCache, self).add(key, value, timeout, version), False)
        return added

    def set_many(self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> list[Any]:
        failed: list[Any] = self._soft(lambda: super(RedisCache, self).set_many(data, timeout, version), list(data))
        return failed

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        touched: bool = self._soft(lambda: super(RedisCache, self).touch(key, timeout, version), False)
        return touched

    def delete(self, key: Any, version: int | None = None) -> bool:
        deleted: bool = self._soft(lambda: super(RedisCache, self).delete(key, version), False)
        return deleted

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        self._soft(lambda: super(RedisCache, self).delete_many(keys, version), None)

    def has_key(self, key: Any, version: int | None = None) -> bool:
        found: bool = self._soft(lambda: super(RedisCache, self).has_key(key, version), False)
        return found

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        # A missing key is still Django's ValueError; an unreachable Redis counts nothing.
        number: int = self._soft(lambda: super(RedisCache, self).incr(key, delta, version), 0)
        return number

    def tracker(self, prefix: str) -> Tracker:
        """Copies in process memory of the keys under ``prefix``, kept until Redis says one changed
        (:mod:`wiki.caching.tracking`); tracked on the server that takes the writes."""
        tracker = self._trackers.get(prefix)
        if tracker is None:
            # _servers is Django's list of the LOCATION's servers, the first taking the writes.
            tracker = self._trackers[prefix] = Tracker(self._servers[0], self.make_key(prefix))  # type: ignore[attr-defined]
        return tracker

    def count(self, key: str, timeout: int) -> int:
        """Adds one to the whole number at ``key`` (1 when there is none) and keeps it ``timeout`` seconds from
        now, in one round trip; Django's ``incr`` takes two and fails on a missing key."""
        full = self.make_and_validate_key(key)

        def counted() -> int:
            pipe = self._cache.get_client(full, write=True).pipeline(transaction=False)
            pipe.incr(full)
            pipe.expire(full, timeout)
            return int(pipe.execute()[0])

        # Without Redis nothing is counted: a limit lets the request through rather than refuse everyone.
        number: int = self._soft(counted, 1)
        return number
