"""Request rates counted in the shared cache, so every worker and server counts against one limit.

DRF's own throttles keep each client's request times in a list that is read and written back whole on every
request: at 600 a minute that is a few kilobytes per request, at higher rates far more. These count each
client's requests in fixed windows with one atomic increment (Redis ``INCR``) instead. A client may send up to
twice the rate across the boundary of two windows, the usual price of fixed windows.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import caches
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import (
    AnonRateThrottle,
    ScopedRateThrottle,
    SimpleRateThrottle,
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
        count = _count(f"{self.key}:{window}", duration + 1)
        self.wait_seconds = (window + 1) * duration - now
        return count <= num_requests

    def wait(self) -> float | None:
        return self.wait_seconds


def _count(key: str, timeout: int) -> int:
    """One more request at ``key``: in one round trip with Redis, else with the backend's ``add`` and ``incr``."""
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        return backend.count(key, timeout)
    try:
        return int(backend.incr(key))
    except ValueError:  # the window's first request
        return 1 if backend.add(key, 1, timeout) else int(backend.incr(key))


class AnonThrottle(WindowCounting, AnonRateThrottle):
    """Anonymous clients, limited per IP address at ``DEFAULT_THROTTLE_RATES["anon"]``."""


class ScopedThrottle(WindowCounting, ScopedRateThrottle):
    """Every client of a view with ``throttle_scope``, per user (or IP when anonymous), at that scope's rate;
    a scope without a rate is not limited."""

    def allow_request(self, request: Request, view: Any) -> bool:
        # The scope comes from the view, so it is known only now (DRF's ScopedRateThrottle does the same).
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return True
        return super().allow_request(request, view)
