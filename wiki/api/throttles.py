"""Request rates counted in the shared cache, so every worker and server counts against one limit.

DRF's own throttles keep each client's request times in a list that is read and written back whole on every
request: at 600 a minute that is a few kilobytes per request, at higher rates far more. These count each
client's requests in fixed windows with one atomic increment (Redis ``INCR``) instead. A client may send up to
twice the rate across the boundary of two windows, the usual price of fixed windows.

Under a high rate a process takes a client's numbers from Redis a block at a time (:class:`Blocks`), one round trip for
the block, and hands them to that client's next requests in order: a round trip for every request cost an API read more
than the rest of answering it from the cache. The numbers a process took but has not handed out count as sent, so
a client is never let through more than its rate; it may be refused a little early (at most ``BLOCK_SHARE`` of its rate
per process holding a block of its), never late. A rate under ``BLOCK_SHARE`` requests a window is counted one request
at a time, exactly.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.cache import caches
from django.http import HttpRequest, HttpResponseBase
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import (
    AnonRateThrottle,
    ScopedRateThrottle,
    SimpleRateThrottle,
    UserRateThrottle,
)

from wiki.caching.backends import RedisCache


class WindowCounting(SimpleRateThrottle):
    """``allow_request`` for any DRF rate throttle: one counter per client and window, in the shared cache."""

    wait_seconds: float = 0.0

    def get_rate(self) -> str | None:
        # Read on every request (DRF reads it once at import), so a changed setting takes effect.
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope) if self.scope is not None else None
        return None if rate is None else str(rate)

    def allow_request(self, request: Request, view: Any) -> bool:
        self.rate = self.get_rate()
        if self.rate is None:
            return True
        num_requests, duration = self.parse_rate(self.rate)
        assert num_requests is not None and duration is not None  # a rate is set
        self.num_requests, self.duration = num_requests, duration
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        now = self.timer()
        window = int(now // duration)
        count = _count(f"{self.key}:{window}", duration + 1, block=block_for(num_requests))
        self.wait_seconds = (window + 1) * duration - now
        _note(request, Budget(limit=num_requests, remaining=max(0, num_requests - count),
                              reset=math.ceil(self.wait_seconds), window=duration))
        return count <= num_requests

    def wait(self) -> float | None:
        return self.wait_seconds


@dataclass(frozen=True)
class Budget:
    """What one limit leaves a client: ``remaining`` of ``limit`` requests until the window ends in ``reset`` seconds."""

    limit: int
    remaining: int
    reset: int
    window: int


def _note(request: Request, budget: Budget) -> None:
    """Keeps on the request the tightest of the limits it was counted against, for :class:`RateLimitHeadersMiddleware`."""
    http_request = request._request
    kept: Budget | None = getattr(http_request, "rate_limit", None)
    if kept is None or budget.remaining < kept.remaining:
        http_request.rate_limit = budget  # type: ignore[attr-defined]  # read back by the middleware


class RateLimitHeadersMiddleware:
    """Tells an API client its budget on every answer counted against a limit (a 429 too), in the IETF draft's
    headers (draft-ietf-httpapi-ratelimit-headers): ``RateLimit-Limit``, ``RateLimit-Remaining``, ``RateLimit-Reset``
    (seconds) and ``RateLimit-Policy`` (``600;w=60``: 600 requests in windows of 60 seconds)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        budget: Budget | None = getattr(request, "rate_limit", None)
        if budget is not None:
            response["RateLimit-Limit"] = str(budget.limit)
            response["RateLimit-Remaining"] = str(budget.remaining)
            response["RateLimit-Reset"] = str(budget.reset)
            response["RateLimit-Policy"] = f"{budget.limit};w={budget.window}"
        return response


# The largest part of a rate one block holds, and the largest block.
BLOCK_SHARE = 256
BLOCK_MAX = 64
# Past this many clients' blocks a process forgets them all (each is of one window: most are of windows ended).
BLOCKS_KEPT = 10_000


def block_for(limit: int) -> int:
    """How many numbers a process takes at once for a client allowed ``limit`` requests a window."""
    return max(1, min(BLOCK_MAX, limit // BLOCK_SHARE))


class Blocks:
    """The numbers this process took from Redis for each client and window, not yet handed out; thread-safe."""

    def __init__(self) -> None:
        self._free: dict[str, tuple[int, int]] = {}  # key: (the next number, the last)
        self._lock = threading.Lock()

    def number(self, key: str, block: int, take: Callable[[int], int]) -> int:
        """The next number of ``key``'s requests: from the block taken before, else from a new one, ``take(block)``
        answering the last number of the block it added."""
        with self._lock:
            found = self._free.pop(key, None)
            if found is not None:
                following, last = found
                if following < last:
                    self._free[key] = (following + 1, last)
                return following
        last = take(block)
        if block == 1 or last < block:  # not counted in blocks, or Redis did not count: nothing to keep
            return last
        with self._lock:
            if len(self._free) >= BLOCKS_KEPT:
                self._free.clear()
            self._free[key] = (last - block + 2, last)
        return last - block + 1

    def clear(self) -> None:
        with self._lock:
            self._free.clear()


blocks = Blocks()


def _count(key: str, timeout: int, *, block: int = 1) -> int:
    """One more request at ``key``, its number in the window: in one round trip with Redis (or none, from a block of
    numbers taken before), else with the backend's ``add`` and ``incr``."""
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        return blocks.number(backend.make_key(key), block, lambda size: backend.count(key, timeout, size))
    try:
        return int(backend.incr(key))
    except ValueError:  # the window's first request
        return 1 if backend.add(key, 1, timeout) else int(backend.incr(key))


class AnonThrottle(WindowCounting, AnonRateThrottle):
    """Anonymous clients, limited per IP address at ``DEFAULT_THROTTLE_RATES["anon"]``."""


class AccountThrottle(WindowCounting, UserRateThrottle):
    """Logged-in clients (a token or a session), limited per account at ``DEFAULT_THROTTLE_RATES["user"]``; anonymous
    ones are :class:`AnonThrottle`'s."""

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if not (request.user and request.user.is_authenticated):
            return None
        return super().get_cache_key(request, view)


class ScopedThrottle(WindowCounting, ScopedRateThrottle):
    """Every client of a view with ``throttle_scope``, per user (or IP when anonymous), at that scope's rate;
    a scope without a rate is not limited."""

    def allow_request(self, request: Request, view: Any) -> bool:
        # The scope comes from the view, so it is known only now (DRF's ScopedRateThrottle does the same).
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return True
        return super().allow_request(request, view)
