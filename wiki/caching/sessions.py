"""Sessions in the cache in front of PostgreSQL (Django's ``cached_db``), each worker keeping a copy of the ones it read
for as long as Redis says they have not changed.

Every logged-in request reads its session before anything else, and a round trip to Redis for it cost more than
serving the cached page it asks for. A session changes rarely (a log-in, a log-out, a message waiting to be shown), so
each worker keeps the sessions it read in its memory and Redis tells it when one is written or deleted, by any server
(client tracking, :mod:`wiki.caching.tracking`, as for the content version): a log-out, on any server, reaches every
worker before its request has answered. A copy is trusted for a few seconds at most, and not at all while the tracking
connection is down; each request gets a copy of its own to change.
"""

from __future__ import annotations

import copy
from typing import Any

from django.conf import settings
from django.contrib.sessions.backends import cached_db
from django.core.cache import caches

from wiki.caching.backends import forget_tracked, tracker_of


class SessionStore(cached_db.SessionStore):
    def load(self) -> dict[str, Any]:
        tracker = tracker_of(settings.SESSION_CACHE_ALIAS, cached_db.KEY_PREFIX)  # where cached_db keeps sessions
        if tracker is None or self.session_key is None:
            return super().load()
        backend = caches[settings.SESSION_CACHE_ALIAS]
        # A session missing from the cache is kept as missing until the read from PostgreSQL below writes it there.
        found = tracker.get([backend.make_key(self.cache_key)], lambda: backend.get(self.cache_key))
        if found is None:
            return super().load()
        return dict(copy.deepcopy(found))  # this request may change its own

    def save(self, must_create: bool = False) -> None:
        super().save(must_create)
        self._forget()

    def delete(self, session_key: str | None = None) -> None:
        super().delete(session_key)
        self._forget()

    def _forget(self) -> None:
        forget_tracked(settings.SESSION_CACHE_ALIAS, cached_db.KEY_PREFIX)
