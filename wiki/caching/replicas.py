"""Whether a read replica may answer a thread's reads: only once it has applied the versions the thread keys by.

What a reader renders is cached under the content version it read (and an account under the accounts version), for
every server to serve until the version moves again. A replica that lags behind the primary would have a render
after an edit made from the rows before it, kept under the edit's version. So a read goes to a replica only when that
replica's own copy of the version row (:mod:`wiki.caching.version_row`, moved by one statement after each write's
commit, so a replica that has the move has the write) has reached the versions the thread keys by; otherwise to the
primary. Replicas apply the primary's changes in order, so once one has reached a version it stays past it.

Each process remembers how far each replica had got when it last looked, and looks again (one query on that replica)
only when a thread keys by a version past that, at most every ``LOOK_AGAIN_SECONDS`` while the replica lags: a
cached page still runs no query, and a render after a write one query more, once per process.
"""

from __future__ import annotations

import math
import threading
import time

from django.db import DatabaseError

from wiki.caching import version_row, versions
from wiki.caching.version_row import VersionRow

LOOK_AGAIN_SECONDS = 0.1


class _Applied:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rows: dict[str, tuple[VersionRow, float]] = {}

    def reached(self, alias: str, content: int, accounts: int) -> bool:
        """Whether the replica ``alias`` has applied ``content`` and ``accounts``, looking again when it may have."""
        with self._lock:
            row, looked_at = self._rows.get(alias, (VersionRow(0, 0), -math.inf))
            if row.covers(content, accounts):
                return True
            if time.monotonic() - looked_at < LOOK_AGAIN_SECONDS:
                return False  # it lagged a moment ago: the primary answers meanwhile
            self._rows[alias] = (row, time.monotonic())
        try:
            row = version_row.read(alias)
        except DatabaseError:
            return False  # a replica that does not answer answers nothing: the primary does
        with self._lock:
            self._rows[alias] = (row.at_least(self._rows[alias][0]), time.monotonic())
        return row.covers(content, accounts)


_applied = _Applied()


def may_read(alias: str) -> bool:
    """Whether the replica ``alias`` may answer this thread's next read."""
    keyed = versions.keyed_by()
    if keyed is None:
        return False  # the thread's transaction wrote: it reads its own writes on the primary
    return _applied.reached(alias, *keyed)
