"""Django's Redis cache with its clients built once.

Django's backend builds a new ``redis.Redis`` client (with its table of response callbacks) for every
cache call, which costs more than the round trip it makes; every request makes a few. A client is safe
to share between threads (its connection pool hands each command a connection), so one is kept per pool.
"""

from __future__ import annotations

from typing import Any

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


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusedClients
        self._trackers: dict[str, Tracker] = {}

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
        pipe = self._cache.get_client(full, write=True).pipeline(transaction=False)
        pipe.incr(full)
        pipe.expire(full, timeout)
        return int(pipe.execute()[0])
