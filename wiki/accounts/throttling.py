"""Failed log-ins counted in the shared cache, so every worker and server refuses alike.

Three counts, each of failures within ``WIKI_LOGIN_FAILURE_WINDOW`` seconds of the one before: for one username from
one client address (``WIKI_LOGIN_FAILURES_PER_USERNAME``), for anything from one address
(``WIKI_LOGIN_FAILURES_PER_ADDRESS``), and for one username from anywhere
(``WIKI_LOGIN_FAILURES_PER_USERNAME_ANYWHERE``, for guessing spread over many addresses). Past a limit, the attempts
it counts are refused until that window has passed since the last failure. A username is not refused everywhere
after a few failures from one address: anyone could then keep an editor from logging in (usernames are public in
the recent changes) by sending five wrong passwords every quarter of an hour; one address reaches its own limit
before it can reach the username's from anywhere.

The username is counted as typed, whether or not such an account exists, so a refusal says nothing about which
accounts exist. A refused attempt checks no password and counts nothing: a password tried meanwhile tells nothing,
and the refusal ends on time. A success clears its username's counts but not its address's, so logging in to one's
own account does not reopen guessing at others'.

Counters and flags in the cache, rather than django-axes: that would add tables and a middleware for what the shared
cache already does, and the API throttles count the same way (``wiki.api.throttles``).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest
from rest_framework.throttling import BaseThrottle

from wiki.caching.backends import RedisCache

_PREFIX = "wiki:login-failures:"
_RESETS = "wiki:password-resets:"


@dataclass(frozen=True)
class Refusal:
    """Attempts are refused until ``until``."""

    until: datetime


def refusal(request: HttpRequest | None, username: str) -> Refusal | None:
    """Whether an attempt to log in as ``username`` from this request's address is refused now."""
    found = caches["default"].get_many([_locked(key) for key, _ in _counters(request, username)])
    if not found:
        return None
    return Refusal(until=datetime.fromtimestamp(max(float(until) for until in found.values()), tz=UTC))


def failed(request: HttpRequest | None, username: str) -> None:
    """Counts a wrong password (or unknown username); the count that reaches its limit starts a refusal."""
    backend = caches["default"]
    window = settings.WIKI_LOGIN_FAILURE_WINDOW
    for key, limit in _counters(request, username):
        if _count(key, window) >= limit:
            backend.set(_locked(key), time.time() + window, window)


def succeeded(request: HttpRequest | None, username: str) -> None:
    caches["default"].delete_many([key for key, _ in _counters(request, username) if ":address:" not in key])


def _counters(request: HttpRequest | None, username: str) -> list[tuple[str, int]]:
    name = _username(username)
    if request is None:
        return [(f"{_PREFIX}username:{_digest(name)}", settings.WIKI_LOGIN_FAILURES_PER_USERNAME)]
    # The client's address as the API throttles see it: REMOTE_ADDR, or behind WIKI_TRUSTED_PROXIES proxies
    # (REST_FRAMEWORK["NUM_PROXIES"]) the X-Forwarded-For entry the outermost of them wrote, never the client.
    address = BaseThrottle().get_ident(request)  # type: ignore[arg-type]  # reads request.META only
    return [
        (f"{_PREFIX}username-from:{_digest(name + chr(0) + address)}", settings.WIKI_LOGIN_FAILURES_PER_USERNAME),
        (f"{_PREFIX}address:{_digest(address)}", settings.WIKI_LOGIN_FAILURES_PER_ADDRESS),
        (f"{_PREFIX}username:{_digest(name)}", settings.WIKI_LOGIN_FAILURES_PER_USERNAME_ANYWHERE),
    ]


def reset_requested(request: HttpRequest, email: str) -> Refusal | None:
    """Counts a request for a password-reset mail to ``email``; past ``WIKI_PASSWORD_RESETS_PER_EMAIL`` for that
    address or ``WIKI_PASSWORD_RESETS_PER_ADDRESS`` from the client's within ``WIKI_PASSWORD_RESET_WINDOW`` seconds,
    returns the refusal (no mail is to be sent), so that no one floods a reader's inbox or the mail server. Counted
    whether or not an account has that address, like the mail form's answer."""
    window = settings.WIKI_PASSWORD_RESET_WINDOW
    address = BaseThrottle().get_ident(request)  # type: ignore[arg-type]  # reads request.META only
    counts = [
        (_count(f"{_RESETS}email:{_digest(email.strip().casefold())}", window), settings.WIKI_PASSWORD_RESETS_PER_EMAIL),
        (_count(f"{_RESETS}address:{_digest(address)}", window), settings.WIKI_PASSWORD_RESETS_PER_ADDRESS),
    ]
    if any(count > limit for count, limit in counts):
        return Refusal(until=datetime.fromtimestamp(time.time() + window, tz=UTC))
    return None


def _username(username: str) -> str:
    # Usernames differing only in case are one: a guess at "Admin" counts against "admin".
    return username.strip().casefold()


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def _locked(key: str) -> str:
    return f"{key}:locked"


def _count(key: str, timeout: int) -> int:
    """One more at ``key``, kept ``timeout`` seconds from now: one atomic round trip with Redis; elsewhere (the
    database cache of ``make run``, the tests' memory) ``add``, ``incr`` and ``touch``, since the database cache's
    ``incr`` puts the default timeout back."""
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        return backend.count(key, timeout)
    backend.add(key, 0, timeout)
    try:
        count = int(backend.incr(key))
    except ValueError:  # expired between the two calls
        backend.set(key, 1, timeout)
        return 1
    backend.touch(key, timeout)
    return count
