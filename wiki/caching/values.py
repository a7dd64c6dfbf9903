"""Values computed from the content (graphs, layouts, counts), kept until the content version moves; a value made from
a small part of the content that can be named whole (a graph's layout) is kept by that part instead, across versions."""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar, cast

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils import translation

from wiki.caching import release, versions
from wiki.caching.local import copies

T = TypeVar("T")
_MISSING = object()


def cached_value(request: HttpRequest, name: str, *parts: object, build: Callable[[], T]) -> T:
    """``build()``, computed once per content version, language, ``name`` and ``parts``; shared by every reader."""
    version = versions.for_request(request)
    digest = hashlib.blake2b("\x1f".join(map(str, parts)).encode(), digest_size=16).hexdigest()
    return kept(f"wiki:value:{release.RELEASE}:{version.number}:{translation.get_language()}:{name}:{digest}", build)


def cached_by_content(name: str, content: str, build: Callable[[], T]) -> T:
    """``build()``, computed once per release, language, ``name`` and ``content`` (a text naming everything the value
    is made from), whatever the content version: after a write that leaves ``content`` as it was, readers get the
    value already made instead of waiting for it to be made again."""
    digest = hashlib.blake2b(content.encode(), digest_size=16).hexdigest()
    return kept(f"wiki:by-content:{release.RELEASE}:{translation.get_language()}:{name}:{digest}", build)


_per_version: dict[str, tuple[int, object]] = {}


def kept_per_version(name: str, build: Callable[[], T], *, version: int | None = None) -> T:
    """``build()`` as of the content ``version`` (the current one by default: a request passes the version it
    already read): this process's copy while the version stands, else the shared cache's, else ``build()``. For
    what searches read whole and only read (the glossary, every work's and page's name), without unpickling it
    on every request."""
    version = versions.current().number if version is None else version
    found = _per_version.get(name)
    if found is None or found[0] != version:
        found = (version, kept(f"wiki:{name}:{release.RELEASE}:{version}", build))
        _per_version[name] = found
    return cast(T, found[1])


def kept(key: str, build: Callable[[], T]) -> T:
    """``build()`` stored at ``key`` in the shared cache and this worker's copies (pickled: each caller gets a
    value of its own to use); the key must name every version the value depends on."""
    raw = copies.get(key)
    if raw is not None:
        return cast(T, pickle.loads(cast(bytes, raw)))  # what build() pickled for the key
    found = cache.get(key, _MISSING)
    if not isinstance(found, _Stored):
        found = _Stored(build())
        cache.set(key, found, settings.WIKI_CACHE_SECONDS)
    pickled = pickle.dumps(found.value, protocol=pickle.HIGHEST_PROTOCOL)
    copies.put(key, pickled, len(pickled))
    return cast(T, found.value)


@dataclass(frozen=True)
class _Stored:
    """A cached value, wrapped so that a value of None is told apart from a miss."""

    value: object
