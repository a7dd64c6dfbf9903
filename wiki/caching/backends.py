"""Django's Redis cache with its clients built once, which serves on without Redis.

Django's backend builds a new ``redis.Redis`` client (with its table of response callbacks) for every
cache call, which costs more than the round trip it makes; every request makes a few. A client is safe
to share between threads (its connection pool hands each command a connection), so one is kept per pool.

Redis holds nothing the wiki cannot make again, so while it cannot be reached, or refuses commands (a full Redis
under ``noeviction``, a replica that became read-only after a failover), every read is a miss and every write is
dropped: pages are rendered from PostgreSQL, sessions read from their table, the API throttles let requests through.
Django makes a backend per thread; whether Redis answers is known per process (:class:`Availability`), so one failed
call spares every thread of the process the wait for the next ``RETRY_SECONDS``, the outage is logged once, and one
call a period tries again, with a write, since a Redis that answers reads may still refuse writes. The versions that
key every entry live in PostgreSQL (:mod:`wiki.caching.versions`), so no write made meanwhile is lost. What is not
keyed by a version (a session, whether a reader watches an item) is another matter: Redis may still hold the value a
refused write should have replaced or deleted (a log-out's). So a process remembers the keys of the writes Redis did
not take, and deletes them when Redis answers again, before anything is read; then its :func:`on_recovery` callbacks
run, once.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping
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
# What a Redis that answers but refuses a command raises: OOM (full, under noeviction), READONLY (a replica), MISCONF
# (cannot persist), NOPERM and the like.
REFUSED = (redis.exceptions.ResponseError,)
RETRY_SECONDS = 2.0
# Keys of writes Redis did not take kept by a process for deleting later; past this many, the rest is only logged.
LEFT_BEHIND_MAX = 100_000
_PROBE_KEY = "wiki:availability-probe"
# Called once per process by the call that finds Redis answering again after an outage.
_RECOVERY: list[Callable[[], None]] = []
# Sets each number key to its number unless it holds a greater one already, in one round trip.
_RAISE_SCRIPT = """
for i, key in ipairs(KEYS) do
    local held = tonumber(redis.call('GET', key))
    if held == nil or held < tonumber(ARGV[i]) then redis.call('SET', key, ARGV[i]) end
end
return 1
"""


def on_recovery(callback: Callable[[], None]) -> None:
    """Have ``callback`` called whenever Redis answers again after it could not be reached."""
    if callback not in _RECOVERY:
        _RECOVERY.append(callback)


class Availability:
    """Whether the Redis at one address answers, shared by every thread of a process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.down = False
        self._retry_at = 0.0
        self._left_behind: set[str] = set()
        self._lost = 0

    def may_call(self) -> bool:
        """True while Redis answers; during an outage, True for one call every ``RETRY_SECONDS`` (the one that tries
        again: the others keep being answered without waiting for it)."""
        if not self.down:
            return True
        with self._lock:
            now = time.monotonic()
            if not self.down or now >= self._retry_at:
                self._retry_at = now + RETRY_SECONDS
                return True
            return False

    def failed(self, error: Exception) -> None:
        with self._lock:
            self._retry_at = time.monotonic() + RETRY_SECONDS
            if self.down:
                return
            self.down = True
        if isinstance(error, REFUSED):
            logger.warning("Redis refuses commands (%s): serving without the shared cache", error)
        else:
            logger.warning("Redis cannot be reached (%s): serving without the shared cache", error)

    def answered(self) -> bool:
        """Marks Redis as answering; True for the one call that ends an outage."""
        if not self.down:
            return False
        with self._lock:
            ended, self.down = self.down, False
        return ended

    def left_behind(self, keys: Iterable[str]) -> None:
        """``keys`` were written while Redis did not take it: what it holds there is to be deleted."""
        with self._lock:
            for key in keys:
                if len(self._left_behind) < LEFT_BEHIND_MAX:
                    self._left_behind.add(key)
                else:
                    self._lost += 1

    def to_delete(self) -> tuple[list[str], int]:
        """The keys left behind, and how many more were not kept, forgotten both (``left_behind`` them again should
        deleting fail)."""
        with self._lock:
            keys, lost = list(self._left_behind), self._lost
            self._left_behind, self._lost = set(), 0
        return keys, lost

    def retry_now(self) -> None:
        """The next call tries Redis at once."""
        with self._lock:
            self._retry_at = 0.0


_AVAILABILITY: dict[str, Availability] = {}
_TRACKERS: dict[str, Tracker] = {}


def _forget_after_fork() -> None:
    # A forked worker learns for itself whether Redis answers, and never reads its parent's tracking socket.
    _AVAILABILITY.clear()
    _TRACKERS.clear()


os.register_at_fork(after_in_child=_forget_after_fork)


def availability(location: str) -> Availability:
    """The process's knowledge of the Redis at ``location``."""
    found = _AVAILABILITY.get(location)
    return found if found is not None else _AVAILABILITY.setdefault(location, Availability())


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusedClients
        self._location = server if isinstance(server, str) else ",".join(server)

    @property
    def availability(self) -> Availability:
        return availability(self._location)

    def _soft(self, call: Callable[[], Any], default: Any, writes: Iterable[str] = ()) -> Any:
        """``call()``, or ``default`` when Redis cannot be reached or refuses the command; ``writes`` are the keys the
        call writes. During an outage, only the process's one call a period tries: first with a write, then deleting
        what the writes Redis did not take left behind, then ``call()``; after an outage, ``on_recovery`` first."""
        state = self.availability
        if not state.may_call():
            state.left_behind(writes)
            return default
        try:
            if state.down:
                # A Redis that reads but refuses writes would hand out entries its refused writes should have replaced.
                DjangoRedisCache.set(self, _PROBE_KEY, 1, 10)
                self._delete_left_behind(state)
            result = call()
        except (*UNREACHABLE, *REFUSED) as error:
            state.left_behind(writes)
            state.failed(error)
            return default
        if state.answered():
            logger.warning("Redis answers again")
            for callback in _RECOVERY:
                callback()
        return result

    def _delete_left_behind(self, state: Availability) -> None:
        keys, lost = state.to_delete()
        try:
            client = self._cache.get_client(None, write=True)
            for start in range(0, len(keys), 1000):
                client.delete(*keys[start:start + 1000])
        except (*UNREACHABLE, *REFUSED):
            state.left_behind(keys)
            raise
        if lost:
            logger.warning("Redis did not take %d writes more than could be remembered: their keys may hold what they "
                           "should have replaced until it expires", lost)

    def _key(self, key: Any, version: int | None) -> str:
        return self.make_and_validate_key(key, version=version)

    @property
    def reachable(self) -> bool:
        """Whether this process's last call reached Redis."""
        return not self.availability.down

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self._soft(lambda: super(RedisCache, self).get(key, default, version), default)

    def get_many(self, keys: Any, version: int | None = None) -> dict[str, Any]:
        found: dict[str, Any] = self._soft(lambda: super(RedisCache, self).get_many(keys, version), {})
        return found

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        self._soft(lambda: super(RedisCache, self).set(key, value, timeout, version), None, [self._key(key, version)])

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        added: bool = self._soft(lambda: super(RedisCache, self).add(key, value, timeout, version), False,
                                 [self._key(key, version)])
        return added

    def set_many(self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> list[Any]:
        failed: list[Any] = self._soft(lambda: super(RedisCache, self).set_many(data, timeout, version), list(data),
                                       [self._key(key, version) for key in data])
        return failed

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        touched: bool = self._soft(lambda: super(RedisCache, self).touch(key, timeout, version), False,
                                   [self._key(key, version)])
        return touched

    def delete(self, key: Any, version: int | None = None) -> bool:
        deleted: bool = self._soft(lambda: super(RedisCache, self).delete(key, version), False, [self._key(key, version)])
        return deleted

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        self._soft(lambda: super(RedisCache, self).delete_many(keys, version), None,
                   [self._key(key, version) for key in keys])

    def has_key(self, key: Any, version: int | None = None) -> bool:
        found: bool = self._soft(lambda: super(RedisCache, self).has_key(key, version), False)
        return found

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        # A missing key is still Django's ValueError; an unreachable Redis counts nothing.
        number: int = self._soft(lambda: super(RedisCache, self).incr(key, delta, version), 0, [self._key(key, version)])
        return number

    def tracker(self, prefix: str) -> Tracker:
        """Copies in process memory of the keys under ``prefix``, kept until Redis says one changed
        (:mod:`wiki.caching.tracking`); tracked on the server that takes the writes, by one connection a process."""
        full = self.make_key(prefix)
        key = f"{self._location} {full}"
        tracker = _TRACKERS.get(key)
        if tracker is None:
            # _servers is Django's list of the LOCATION's servers, the first taking the writes; _options its OPTIONS.
            servers: list[str] = self._servers  # type: ignore[attr-defined]
            options: dict[str, Any] = self._options  # type: ignore[attr-defined]
            made = Tracker(servers[0], full, connect_timeout=options.get("socket_connect_timeout"),
                           timeout=options.get("socket_timeout"))
            tracker = _TRACKERS.setdefault(key, made)
        return tracker

    def raise_numbers(self, numbers: Mapping[str, int]) -> None:
        """Sets each key of ``numbers`` to its number unless it holds a greater one: writers racing each other never
        move a number back."""
        keys = [self.make_and_validate_key(key) for key in numbers]
        client = self._cache.get_client(keys[0], write=True)
        self._soft(lambda: client.eval(_RAISE_SCRIPT, len(keys), *keys, *numbers.values()), None, keys)

    def count(self, key: str, timeout: int, by: int = 1) -> int:
        """Adds ``by`` (a request, or a block of them) to the whole number at ``key`` (none counting as 0) and keeps
        it ``timeout`` seconds from now, in one round trip; Django's ``incr`` takes two and fails on a missing key."""
        full = self.make_and_validate_key(key)

        def counted() -> int:
            pipe = self._cache.get_client(full, write=True).pipeline(transaction=False)
            pipe.incrby(full, by)
            pipe.expire(full, timeout)
            return int(pipe.execute()[0])

        # Without Redis nothing is counted: a limit lets the request through rather than refuse everyone.
        number: int = self._soft(counted, 1, [full])
        return number


def tracker_of(alias: str, prefix: str) -> Tracker | None:
    """This process's tracked copies of the keys under ``prefix`` in the cache ``alias`` (:meth:`RedisCache.tracker`),
    or None when that cache is not Redis or did not answer this process's last call (its copies are not to be trusted)."""
    from django.core.cache import caches

    backend = caches[alias]
    return backend.tracker(prefix) if isinstance(backend, RedisCache) and backend.reachable else None


def forget_tracked(alias: str, prefix: str) -> None:
    """Drops this process's copies under ``prefix``: it has just written one, and Redis's message saying so may not
    have been read yet, so its next reads go to Redis."""
    tracker = tracker_of(alias, prefix)
    if tracker is not None:
        tracker.forget()
