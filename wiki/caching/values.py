"""Values computed from the content (graphs, layouts, counts), kept until the content version moves."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TypeVar

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils import translation

from wiki.caching import versions

T = TypeVar("T")
_MISSING = object()


def cached_value(request: HttpRequest, name: str, *parts: object, build: Callable[[], T]) -> T:
    """``build()``, computed once per content version, language, ``name`` and ``parts``; shared by every reader."""
    version = versions.for_request(request)
    digest = hashlib.blake2b("\x1f".join(map(str, parts)).encode(), digest_size=16).hexdigest()
    key = f"wiki:value:{version.number}:{translation.get_language()}:{name}:{digest}"
    found = cache.get(key, _MISSING)
    if found is not _MISSING:
        return found  # type: ignore[return-value]  # what build() returned for the same key
    value = build()
    cache.set(key, value, settings.WIKI_CACHE_SECONDS)
    return value
