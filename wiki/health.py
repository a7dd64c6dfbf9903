"""What the health check finds: the primary PostgreSQL (and whether it is migrated as far as the code), the shared
cache and each read replica.

A server can serve while it reaches the primary: without the cache every page is rendered from PostgreSQL, and
without a replica its reads go to the primary (``config.routers``). So the primary decides whether the server is
up; the rest decides whether it is whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from django.conf import settings
from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections

from config.routers import replica_failed, replica_usable
from wiki.schema_state import MIGRATE_COMMAND, database_behind

OK = "ok"
DEGRADED = "degraded"
UNREACHABLE = "unreachable"
Status = Literal["ok", "degraded", "unavailable"]


@dataclass(frozen=True)
class Health:
    database: str
    cache: str
    replicas: tuple[tuple[str, str], ...]
    # The migrations the code has and the primary lacks: the server answers 503 until they are applied.
    unapplied: tuple[str, ...] = ()

    @property
    def serving(self) -> bool:
        """Whether the server can answer readers and editors: the primary answers, migrated as far as the code."""
        return self.database == OK and not self.unapplied

    @property
    def whole(self) -> bool:
        """Whether every service the server uses answers."""
        return self.serving and self.cache == OK and all(state == OK for _, state in self.replicas)

    @property
    def status(self) -> Status:
        if not self.serving:
            return "unavailable"
        return "ok" if self.whole else "degraded"

    def as_json(self) -> dict[str, object]:
        found: dict[str, object] = {"status": self.status, "database": self.database, "cache": self.cache}
        if self.replicas:
            found["replicas"] = dict(self.replicas)
        if self.unapplied:
            found["migrations"] = {"unapplied": len(self.unapplied), "first": self.unapplied[0], "run": MIGRATE_COMMAND}
        return found


def health_check() -> Health:
    """Asks the primary, the cache and each replica once (one query each, one cache write and read); whether the
    primary is migrated as far as the code, as the server found it (:func:`wiki.schema_state.database_behind`)."""
    database = _primary()
    return Health(
        database=database,
        cache=_cache(),
        replicas=tuple((alias, _replica(alias)) for alias in settings.DATABASE_REPLICAS),
        unapplied=_unapplied() if database == OK else (),
    )


def _unapplied() -> tuple[str, ...]:
    try:
        return tuple(database_behind())
    except DatabaseError:  # lost since it answered: the next check says so
        return ()


def _primary() -> str:
    try:
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as error:  # noqa: BLE001 - any failure means "cannot serve", reported by its class
        return f"error: {type(error).__name__}"
    return OK


def _cache() -> str:
    """``degraded`` when a value is not read back: the wiki's Redis backend turns an outage into misses."""
    try:
        cache.set("wiki:health", 1, 10)
        return OK if cache.get("wiki:health") == 1 else DEGRADED
    except Exception:  # noqa: BLE001 - another backend may raise; the wiki serves on without it all the same
        return DEGRADED


def _replica(alias: str) -> str:
    """``unreachable`` while the router leaves the replica out (a failure in the last few seconds), else its answer."""
    if not replica_usable(alias):
        return UNREACHABLE
    try:
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError as error:
        replica_failed(alias, error)
        return f"error: {type(error).__name__}"
    return OK
