"""The content version and the accounts version: the numbers every cached entry is keyed by.

Their truth is one row of PostgreSQL (:mod:`wiki.caching.version_row`). Writes are noticed where they reach the
database (an execute wrapper on each connection), so every service, command and admin action invalidates the cache
without having to remember to. A write moves the row once its transaction has committed, so a reader that filled the
cache from the rows before it is never served again; until then the writing transaction alone reads versions of its
own (which is all a test that never commits sees), so it never reads back what it cached before its own write.

Reading the row on every request would cost a query where a cached page costs none. So each process reads it at most
once every ``WIKI_VERSION_CHECK_SECONDS`` and otherwise keys by the greater of what it read last and the copy in the
shared cache, to which every move is written (with Redis, a copy tracked in process memory: no round trip either). A
server that cannot write to the shared cache still moves the row, and every other server keys by the move within
``WIKI_VERSION_CHECK_SECONDS``. With the cache in PostgreSQL, the row is read on every request: one query, as the
cache's own copy of the version took.
"""

from __future__ import annotations

import math
import random
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.db import DatabaseCache
from django.db import InterfaceError, OperationalError, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.http import HttpRequest

from wiki.caching import version_row
from wiki.caching.backends import RedisCache, on_recovery
from wiki.caching.tracking import Tracker
from wiki.caching.version_row import VersionRow

# Every version lives under one prefix, which a worker tracks in Redis (``_tracker``): reading them costs no round trip.
VERSIONS_PREFIX = "wiki:versions:"
# Copies of the row's numbers.
VERSION_KEY = VERSIONS_PREFIX + "content-row"
# Moved by writes to the accounts themselves (a password, a login, a deactivation) and to readers' profiles (the
# language and time zone read with a cached account), which show on no page.
ACCOUNTS_KEY = VERSIONS_PREFIX + "accounts-row"
_KEYS = [VERSION_KEY, ACCOUNTS_KEY]

_thread = threading.local()
# The wiki's tables, and who belongs to which group with which permissions (cached pages show edit links
# by permission); then the accounts table and readers' profiles. Django quotes table names; raw SQL of the search
# index may not.
_WRITE = re.compile(
    r'\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?|COPY)\s+"?'
    r'(?:(?P<content>wiki_|auth_group|auth_user_groups|auth_user_user_permissions)|(?P<accounts>auth_user\b|reader_profile\b))',
    re.IGNORECASE,
)
# Pages name accounts by their username (who made a change, who set a classification): a write that sets it (the
# admin's form, a rename) moves the content version too, where a log-in, which sets the last login alone, does not.
_USERNAME_WRITE = re.compile(r'\s*UPDATE\s+"?auth_user"?\s+SET\s(?:(?!\bWHERE\b).)*"?username"?\s*=',
                             re.IGNORECASE | re.DOTALL)


@dataclass(frozen=True)
class ContentVersion:
    number: int
    changed_at: datetime


class _Known:
    """The row as this process last read it from PostgreSQL or moved it, and when it last read it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.row: VersionRow | None = None
        self._read_at = -math.inf
        self._moves = 0

    def read_within(self, seconds: float, *, now: bool = False) -> VersionRow:
        """The row, read again from PostgreSQL when ``now`` or when the last read is ``seconds`` old. One thread reads
        it; the others go on with the row they have meanwhile."""
        row = self.row
        if not now and row is not None and time.monotonic() - self._read_at < seconds:
            return row
        with self._lock:
            due = now or self.row is None or time.monotonic() - self._read_at >= seconds
            if due:
                self._read_at = time.monotonic()
            row, moves = self.row, self._moves
        if not due and row is not None:
            return row
        try:
            fresh = version_row.read()
        except (OperationalError, InterfaceError):
            if row is None:
                raise
            return row  # PostgreSQL away: nothing can be written either
        with self._lock:
            # A move this process made meanwhile may be newer than the row read.
            self.row = fresh if self.row is None or moves == self._moves else self.row.at_least(fresh)
            return self.row

    def forget(self) -> None:
        with self._lock:
            self.row, self._read_at = None, -math.inf
            self._moves += 1

    def moved(self, row: VersionRow) -> None:
        """``row`` as a move of this process left it: read from PostgreSQL as much as a read is."""
        with self._lock:
            self._moves += 1
            self._read_at = time.monotonic()
            self.row = row if self.row is None else self.row.at_least(row)


_known = _Known()


def current() -> ContentVersion:
    """The version every cached entry is keyed by."""
    _thread.read_since_bump = True
    private = _private("content")
    if private is not None:
        return ContentVersion(*private)
    number = _shared().content
    _thread.keyed_content = number
    return ContentVersion(number, version_row.changed_at(number))


def for_request(request: HttpRequest) -> ContentVersion:
    """``current()``, read once per request."""
    version: ContentVersion | None = getattr(request, "_wiki_content_version", None)
    if version is None:
        version = current()
        setattr(request, "_wiki_content_version", version)
    return version


def accounts_version() -> int:
    """The version cached accounts are keyed by. Read by every logged-in request, as the content version is."""
    private = _private("accounts")
    if private is not None:
        return private[0]
    number = _shared().accounts
    _thread.keyed_accounts = number
    return number


def forget() -> None:
    """The next read of the versions goes to PostgreSQL (the database was rolled back, or restored)."""
    _known.forget()


def keyed_by() -> tuple[int, int] | None:
    """The content and accounts versions this thread last keyed what it caches by; None while its transaction has
    written (it reads versions of its own, and its reads belong where its writes are), and before it has keyed
    anything (a command, or a thread's first work before a request: no version holds a replica to what it must have
    applied, so the primary answers)."""
    if _private("content") is not None or _private("accounts") is not None:
        return None
    if not hasattr(_thread, "keyed_content"):
        return None
    return getattr(_thread, "keyed_content", 0), getattr(_thread, "keyed_accounts", 0)


def _shared() -> VersionRow:
    backend = caches["default"]
    if isinstance(backend, DatabaseCache):
        return version_row.read()
    copy = _copy(backend)
    # A copy missing from a cache that answers was evicted or never written: the row, read at once, is written there.
    known = _known.read_within(settings.WIKI_VERSION_CHECK_SECONDS, now=copy is None and _reachable(backend))
    if copy is not None and copy.covers(known.content, known.accounts):
        return copy
    # The copy was lost, or is behind a move made by a server that could not write to the cache: it learns the move.
    row = known if copy is None else copy.at_least(known)
    _publish(backend, row)
    return row


def _copy(backend: BaseCache) -> VersionRow | None:
    tracker = _tracker(backend)
    if tracker is None or not _reachable(backend):
        found = backend.get_many(_KEYS)
    else:
        # In process memory until Redis says a version moved (wiki.caching.tracking): no round trip per request.
        found = tracker.get([backend.make_key(key) for key in _KEYS], lambda: backend.get_many(_KEYS))
        if len(found) < len(_KEYS):
            tracker.forget()  # no copy of a missing number
    if VERSION_KEY not in found or ACCOUNTS_KEY not in found:
        return None
    return VersionRow(int(found[VERSION_KEY]), int(found[ACCOUNTS_KEY]))


def _publish(backend: BaseCache, row: VersionRow) -> None:
    """Raises the shared cache's copy to ``row``; a copy already past it stays."""
    if isinstance(backend, DatabaseCache):
        return
    numbers = {VERSION_KEY: row.content, ACCOUNTS_KEY: row.accounts}
    if isinstance(backend, RedisCache):
        backend.raise_numbers(numbers)
    else:
        found = backend.get_many(_KEYS)
        behind = {key: number for key, number in numbers.items() if int(found.get(key, 0)) < number}
        if behind:
            backend.set_many(behind, timeout=None)
    tracker = _tracker(backend)
    if tracker is not None:
        # This process's own message may still be on its way: its next read goes to Redis.
        tracker.forget()


def _tracker(backend: BaseCache) -> Tracker | None:
    return backend.tracker(VERSIONS_PREFIX) if isinstance(backend, RedisCache) else None


def _reachable(backend: BaseCache) -> bool:
    return backend.reachable if isinstance(backend, RedisCache) else True


def _moved(row: VersionRow | None) -> None:
    if row is None:
        return
    _known.moved(row)
    _publish(caches["default"], row)


def bump() -> None:
    """A new content version (run once the write has committed): every entry keyed by an older one is never read
    again."""
    _thread.read_since_bump = False
    _thread.content = None
    _moved(version_row.move("content"))


def bump_accounts() -> None:
    _thread.accounts = None
    _moved(version_row.move("accounts"))


def _registered(connection: BaseDatabaseWrapper, callback: Callable[[], None]) -> bool:
    # Django keeps (savepoints, func, robust) triples; the stubs still say pairs.
    return any(entry[1] is callback for entry in connection.run_on_commit)


def _private(kind: str) -> tuple[int, datetime] | None:
    """The version of ``kind`` this thread's writing transaction reads, while that transaction is open."""
    held: tuple[int, datetime, BaseDatabaseWrapper, Callable[[], None]] | None = getattr(_thread, kind, None)
    if held is None:
        return None
    number, when, connection, callback = held
    if _registered(connection, callback):
        return number, when
    setattr(_thread, kind, None)  # committed or rolled back
    return None


def _start_private(kind: str, connection: BaseDatabaseWrapper, callback: Callable[[], None]) -> None:
    """A version of ``kind`` for this thread's writing transaction alone: far above the row's numbers, with random low
    bits so that no other transaction's comes out the same, and above the last one this thread had."""
    held = getattr(_thread, kind, None)
    number = (time.time_ns() << 16) | random.getrandbits(16)
    if held is not None:
        number = max(number, held[0] + 1)
    setattr(_thread, kind, (number, datetime.now(tz=UTC), connection, callback))


def content_changed(connection: BaseDatabaseWrapper) -> None:
    """Bumps after the writing transaction commits (at once outside a transaction); meanwhile the transaction reads a
    version of its own.

    Many writes in a row make one version; a write after this thread read the version makes another, so a transaction
    that writes, reads and writes again never reads back what it cached in between. No row is locked by a writer
    until it commits: writers never wait for each other.
    """
    if not connection.in_atomic_block:
        bump()
        return
    registered = _registered(connection, bump)
    if not registered:
        transaction.on_commit(bump, using=connection.alias)
    if not registered or getattr(_thread, "read_since_bump", True) or _private("content") is None:
        _start_private("content", connection, bump)


def accounts_changed(connection: BaseDatabaseWrapper) -> None:
    """Bumps the accounts version after the writing transaction commits; meanwhile the transaction reads its own."""
    if not connection.in_atomic_block:
        bump_accounts()
        return
    if not _registered(connection, bump_accounts):
        transaction.on_commit(bump_accounts, using=connection.alias)
    _start_private("accounts", connection, bump_accounts)


def watch_writes(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
    """An execute wrapper: runs the statement, then bumps the version of what it wrote to."""
    result = execute(sql, params, many, context)
    found = _WRITE.match(sql)
    if found and found["content"]:
        content_changed(context["connection"])
    elif found:
        accounts_changed(context["connection"])
        if _USERNAME_WRITE.match(sql):
            content_changed(context["connection"])
    return result


def _after_outage() -> None:
    """Redis answers again: its copy learns the moves this process made or read meanwhile."""
    backend = caches["default"]
    if isinstance(backend, RedisCache) and _known.row is not None:
        _publish(backend, _known.row)


def watch_outages() -> None:
    """With Redis, raises its copy of the versions when it answers again after an outage (:mod:`wiki.caching.backends`)."""
    on_recovery(_after_outage)


def install(connection: BaseDatabaseWrapper, **kwargs: object) -> None:
    """Connected to ``connection_created``: watch this connection's writes."""
    if watch_writes not in connection.execute_wrappers:
        connection.execute_wrappers.append(watch_writes)
