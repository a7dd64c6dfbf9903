"""A small in-process copy of what a worker last served, in front of the shared cache.

Keys hold the content version, which is still read on every request (:mod:`wiki.caching.versions`), so this copy is
no staler than the shared cache's; it only saves fetching the same bytes from Redis again. Bounded in bytes, least
recently used first out.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.conf import settings


class LocalCopies:
    def __init__(self) -> None:
        self._entries: OrderedDict[str, tuple[object, int]] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, key: str) -> object | None:
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return None
            self._entries.move_to_end(key)
            return found[0]

    def put(self, key: str, value: object, size: int) -> None:
        budget = settings.WIKI_LOCAL_CACHE_BYTES
        if size > budget // 8:
            return
        with self._lock:
            if key in self._entries:
                return
            self._entries[key] = (value, size)
            self._size += size
            while self._size > budget:
                _, (_, dropped) = self._entries.popitem(last=False)
                self._size -= dropped

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._size = 0


copies = LocalCopies()
