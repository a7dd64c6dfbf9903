"""Reads from PostgreSQL streaming replicas, writes to the primary, and an editor reads their own writes.

Active when ``DATABASE_REPLICA_URLS`` lists replicas. A request that wrote (any unsafe method) sets a
short-lived cookie; while it lasts, that browser's reads go to the primary, so an editor never sees a
replica that has not caught up with their edit. A replica that has not yet applied the versions the reading thread
keys its cache entries by answers none of its reads (:mod:`wiki.caching.replicas`): nothing rendered from it is
cached as newer than it is.

A replica that cannot be connected to is left out, and reads go to another or to the primary: the process
remembers it for ``DATABASE_REPLICA_RETRY_SECONDS``, then tries it again. The check costs nothing while a
connection is open (Django's health check of a kept connection runs once a request anyway).
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.http import HttpRequest, HttpResponse

from wiki.caching.replicas import may_read

PIN_COOKIE = "wiki_primary"
_state = threading.local()
logger = logging.getLogger(__name__)
# Each replica that could not be connected to, with the time.monotonic() before which it is not tried again.
_unreachable: dict[str, float] = {}


def replica_failed(alias: str, error: Exception) -> None:
    """Leaves ``alias`` out of the reads for ``DATABASE_REPLICA_RETRY_SECONDS``; logged once per outage."""
    retry = settings.DATABASE_REPLICA_RETRY_SECONDS
    if alias not in _unreachable:
        reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
        logger.warning("Replica %s cannot be reached (%s): reading from the primary, trying it again every %s s",
                       alias, reason, retry)
    _unreachable[alias] = time.monotonic() + retry


def replica_usable(alias: str) -> bool:
    """Whether reads can go to ``alias``: not left out in the last few seconds, and connected (a kept connection that
    failed Django's health check is replaced, a new one opened)."""
    if time.monotonic() < _unreachable.get(alias, 0.0):
        return False
    connection = connections[alias]
    try:
        connection.close_if_health_check_failed()
        connection.ensure_connection()
    except DatabaseError as error:
        replica_failed(alias, error)
        return False
    if _unreachable.pop(alias, None) is not None:
        logger.warning("Replica %s answers again: reads go to it", alias)
    return True


class ReplicaRouter:
    def db_for_read(self, model: type, **hints: Any) -> str:
        replicas: list[str] = settings.DATABASE_REPLICAS
        if not replicas or getattr(_state, "pinned", False):
            return DEFAULT_DB_ALIAS
        return next((alias for alias in random.sample(replicas, len(replicas)) if replica_usable(alias) and may_read(alias)),
                    DEFAULT_DB_ALIAS)

    def db_for_write(self, model: type, **hints: Any) -> str:
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db == DEFAULT_DB_ALIAS


@contextmanager
def primary_reads() -> Iterator[None]:
    """Reads inside go to the primary: for work that must see every commit so far, which a replica may not have yet
    (a refresh of derived rows that then forgets what it was told to read again)."""
    pinned = getattr(_state, "pinned", False)
    _state.pinned = True
    try:
        yield
    finally:
        _state.pinned = pinned


class PrimaryAfterWriteMiddleware:
    """Pins a request to the primary when it writes, or when its browser wrote in the last few seconds."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        writes = request.method not in ("GET", "HEAD", "OPTIONS", "TRACE")
        _state.pinned = writes or PIN_COOKIE in request.COOKIES
        try:
            response = self.get_response(request)
        finally:
            _state.pinned = False
        if writes:
            response.set_cookie(PIN_COOKIE, "1", max_age=settings.DATABASE_PRIMARY_PIN_SECONDS, httponly=True,
                                samesite="Lax", secure=settings.SESSION_COOKIE_SECURE)
        return response
