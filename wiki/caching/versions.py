"""The content version: one counter in the shared cache, bumped by every write to the wiki's tables.

Writes are noticed where they reach the database (an execute wrapper on each connection), so every
service, command and admin action invalidates the cache without having to remember to. The counter
is bumped at once, inside the writing transaction (which is all a test that never commits sees),
and again after the commit: a reader that filled the cache from the old rows between the two bumps
is never served again. With the cache in the database, only the bump after the commit is made.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.core.cache import cache, caches
from django.core.cache.backends.db import DatabaseCache
from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.http import HttpRequest

from wiki.caching.backends import RedisCache, on_recovery
from wiki.caching.tracking import Tracker

# Every version lives under one prefix, which a worker tracks in Redis (``_tracker``): reading them costs no round trip.
VERSIONS_PREFIX = "wiki:versions:"
VERSION_KEY = VERSIONS_PREFIX + "content"
CHANGED_AT_KEY = VERSIONS_PREFIX + "content-changed-at"
# Moved by writes to the accounts themselves (a password, a login, a deactivation) and to readers' profiles (the
# language and time zone read with a cached account), which show on no page.
ACCOUNTS_KEY = VERSIONS_PREFIX + "accounts"

_thread = threading.local()
# The wiki's tables, and who belongs to which group with which permissions (cached pages show edit links
# by permission); then the accounts table and readers' profiles. Django quotes table names; raw SQL of the search
# index may not.
_WRITE = re.compile(
    r'\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?|COPY)\s+"?'
    r'(?:(?P<content>wiki_|auth_group|auth_user_groups|auth_user_user_permissions)|(?P<accounts>auth_user\b|reader_profile\b))',
    re.IGNORECASE,
)


@dataclass(frozen=True)
class ContentVersion:
    number: int
    changed_at: datetime


def current() -> ContentVersion:
    """The version every cached entry is keyed by; started from the clock when the cache holds none."""
    _thread.read_since_bump = True
    number, changed_at = _read()
    if number is None or changed_at is None:
        number, changed_at = _start()
    return ContentVersion(int(number), datetime.fromtimestamp(int(changed_at), tz=UTC))


def _read() -> tuple[int | None, int | None]:
    backend = caches["default"]
    keys = [VERSION_KEY, CHANGED_AT_KEY]
    tracker = _tracker()
    if tracker is None:
        found = backend.get_many(keys)
    else:
        # In process memory until Redis says the version moved (wiki.caching.tracking): no round trip per request.
        found = tracker.get([backend.make_key(key) for key in keys], lambda: backend.get_many(keys))
        if len(found) < len(keys):
            tracker.forget()  # not started yet: no copy of the missing version
    return found.get(VERSION_KEY), found.get(CHANGED_AT_KEY)


def _tracker() -> Tracker | None:
    backend = caches["default"]
    return backend.tracker(VERSIONS_PREFIX) if isinstance(backend, RedisCache) else None


def for_request(request: HttpRequest) -> ContentVersion:
    """``current()``, read once per request."""
    version: ContentVersion | None = getattr(request, "_wiki_content_version", None)
    if version is None:
        version = current()
        setattr(request, "_wiki_content_version", version)
    return version


def _start() -> tuple[int, int]:
    # The clock in nanoseconds is above any number a lost counter reached, so no old key comes back.
    now = int(time.time())
    cache.add(VERSION_KEY, time.time_ns(), timeout=None)
    cache.add(CHANGED_AT_KEY, now, timeout=None)
    found = cache.get_many([VERSION_KEY, CHANGED_AT_KEY])
    return found.get(VERSION_KEY, time.time_ns()), found.get(CHANGED_AT_KEY, now)


def bump() -> None:
    """A new version: every entry keyed by an older one is never read again."""
    _thread.read_since_bump = False
    try:
        cache.incr(VERSION_KEY)
    except ValueError:
        _start()
    cache.set(CHANGED_AT_KEY, int(time.time()), timeout=None)
    tracker = _tracker()
    if tracker is not None:
        # This process's own message may still be on its way: its next read goes to Redis.
        tracker.forget()


def content_changed(connection: BaseDatabaseWrapper) -> None:
    """Bumps after the writing transaction commits and, unless the cache is in that database, at once.

    Many writes in a row bump once; a write after this thread read the version bumps again, so a
    transaction that writes, reads and writes again never reads back what it cached in between. A
    cache kept in the database would hold the version's row locked from the first write to the commit,
    making every writer wait for every other: there the bump waits for the commit.
    """
    if not connection.in_atomic_block:
        bump()
        return
    # Django keeps (savepoints, func, robust) triples; the stubs still say pairs.
    registered = any(entry[1] is bump for entry in connection.run_on_commit)
    if not registered:
        transaction.on_commit(bump, using=connection.alias)
    if isinstance(caches["default"], DatabaseCache):
        return
    if not registered or getattr(_thread, "read_since_bump", True):
        bump()


def accounts_version() -> int:
    """The version cached accounts are keyed by; started from the clock when the cache holds none.

    Read by every logged-in request: from this process's tracked copy when Redis tracks it, as the content version is.
    """
    backend = caches["default"]
    tracker = _tracker()
    if tracker is None:
        found = backend.get(ACCOUNTS_KEY)
    else:
        found = tracker.get([backend.make_key(ACCOUNTS_KEY)], lambda: backend.get(ACCOUNTS_KEY))
    if found is None:
        if tracker is not None:
            tracker.forget()  # no copy of a version that is about to start
        cache.add(ACCOUNTS_KEY, time.time_ns(), timeout=None)
        found = cache.get(ACCOUNTS_KEY, 0)
    return int(found)


def bump_accounts() -> None:
    try:
        cache.incr(ACCOUNTS_KEY)
    except ValueError:
        cache.add(ACCOUNTS_KEY, time.time_ns(), timeout=None)
    tracker = _tracker()
    if tracker is not None:
        # As for the content version: this process's own message may still be on its way.
        tracker.forget()


def accounts_changed(connection: BaseDatabaseWrapper) -> None:
    """Bumps the accounts version at once and again after the writing transaction commits."""
    bump_accounts()
    if connection.in_atomic_block:
        transaction.on_commit(bump_accounts, using=connection.alias)


def watch_writes(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
    """An execute wrapper: runs the statement, then bumps the version of what it wrote to."""
    result = execute(sql, params, many, context)
    found = _WRITE.match(sql)
    if found and found["content"]:
        content_changed(context["connection"])
    elif found:
        accounts_changed(context["connection"])
    return result


def _after_outage() -> None:
    """Both versions moved: the writes made while Redis could not be reached moved neither."""
    bump()
    bump_accounts()


def watch_outages() -> None:
    """With Redis, moves both versions when it answers again after an outage (:mod:`wiki.caching.backends`)."""
    on_recovery(_after_outage)


def install(connection: BaseDatabaseWrapper, **kwargs: object) -> None:
    """Connected to ``connection_created``: watch this connection's writes."""
    if watch_writes not in connection.execute_wrappers:
        connection.execute_wrappers.append(watch_writes)
