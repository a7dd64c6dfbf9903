"""Reads from PostgreSQL streaming replicas, writes to the primary, and an editor reads their own writes.

Active when ``DATABASE_REPLICA_URLS`` lists replicas. A request that wrote (any unsafe method) sets a
short-lived cookie; while it lasts, that browser's reads go to the primary, so an editor never sees a
replica that has not caught up with their edit.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS
from django.http import HttpRequest, HttpResponse

PIN_COOKIE = "wiki_primary"
_state = threading.local()


class ReplicaRouter:
    def db_for_read(self, model: type, **hints: Any) -> str:
        replicas: list[str] = settings.DATABASE_REPLICAS
        if not replicas or getattr(_state, "pinned", False):
            return DEFAULT_DB_ALIAS
        return random.choice(replicas)

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
