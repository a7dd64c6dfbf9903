"""The truth of the versions: one row of PostgreSQL (``content_version``, made by migration 0041).

Each number is the time of the version's last move in microseconds on the database's clock (one more than the last when
two moves fall in the same microsecond), so it only grows, and the first move after the database was restored from an
older copy still goes past every number given out before. A move is one statement of its own, after the write it follows has committed: it holds the row for
the statement only, and a replica that has the move has the write before it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from django.db import DEFAULT_DB_ALIAS, ProgrammingError, connections

_MICROSECONDS = "(extract(epoch FROM clock_timestamp()) * 1000000)::bigint"
_READ = "SELECT content, accounts FROM content_version WHERE id = 1"
# Should the row be gone (a hand-made reset), the next read or move starts it again from the clock.
_START = (f"INSERT INTO content_version (id, content, accounts) VALUES (1, {_MICROSECONDS}, {_MICROSECONDS}) "
          "ON CONFLICT (id) DO NOTHING")
_UNDEFINED_TABLE = "42P01"
_MOVE = f"UPDATE content_version SET {{column}} = GREATEST({{column}} + 1, {_MICROSECONDS}) WHERE id = 1 RETURNING content, accounts"


@dataclass(frozen=True)
class VersionRow:
    content: int
    accounts: int

    def at_least(self, other: VersionRow) -> VersionRow:
        return VersionRow(max(self.content, other.content), max(self.accounts, other.accounts))

    def covers(self, content: int, accounts: int) -> bool:
        return self.content >= content and self.accounts >= accounts


def changed_at(number: int) -> datetime:
    """When the version ``number`` was made."""
    return datetime.fromtimestamp(number // 1_000_000, tz=UTC)


def read(using: str = DEFAULT_DB_ALIAS) -> VersionRow:
    """The row as the database ``using`` holds it: one query (two on a primary that lost it); (0, 0) on a replica
    that has no row yet."""
    with connections[using].cursor() as cursor:
        cursor.execute(_READ)
        found = cursor.fetchone()
        if found is None and using == DEFAULT_DB_ALIAS:
            cursor.execute(_START)
            cursor.execute(_READ)
            found = cursor.fetchone()
    return VersionRow(*found) if found is not None else VersionRow(0, 0)


def move(column: str) -> VersionRow | None:
    """Moves ``column`` ("content" or "accounts") on the primary; answers the row as it now is, or None while the
    migrations that write the wiki's first rows run before the one that makes the table."""
    assert column in ("content", "accounts")
    connection = connections[DEFAULT_DB_ALIAS]
    with connection.cursor() as cursor:
        try:
            cursor.execute(_MOVE.format(column=column))
        except ProgrammingError as error:
            if getattr(error.__cause__, "sqlstate", None) == _UNDEFINED_TABLE and not connection.in_atomic_block:
                return None
            raise
        found = cursor.fetchone()
        if found is None:
            cursor.execute(_START)
            cursor.execute(_MOVE.format(column=column))
            found = cursor.fetchone()
    return VersionRow(*found)
