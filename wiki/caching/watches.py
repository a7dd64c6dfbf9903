"""Whether a reader watches a page, a work or a question, read from the shared cache.

Every logged-in read of a page, work or question shows its watch button, filled into the page's shared copy
(``wiki.caching.readers``); the answer is kept per account and item, so such a read runs no query once it was
asked, and each worker keeps the answers it read until Redis says one changed (client tracking,
``wiki.caching.tracking``), so such a read makes no round trip either. A watch's service drops the answer, and
writes the new one once its transaction commits; a reader that read the database before only adds its answer where
none is (``cache.add``), so the writer's stands.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from wiki.caching.backends import forget_tracked, tracker_of

_PREFIX = "wiki:watching:"


def _key(user_id: int, kind: str, object_id: int) -> str:
    return f"{_PREFIX}{user_id}:{kind}:{object_id}"


def is_watching(user_id: int, kind: str, object_id: int) -> bool:
    key = _key(user_id, kind, object_id)
    tracker = tracker_of("default", _PREFIX)
    # Each worker keeps the answers it read until Redis says one changed (wiki.caching.tracking): no round trip.
    found = cache.get(key) if tracker is None else tracker.get([cache.make_key(key)], lambda: cache.get(key))
    if found is not None:
        return bool(found)
    from wiki.models import Watch

    watching = Watch.objects.of(user_id).filter(**{f"{kind}_id": object_id}).exists()
    cache.add(key, watching, settings.WIKI_CACHE_SECONDS)
    return watching


def remember(changed: Iterable[tuple[int, str, int]], *, watching: bool) -> None:
    """Each ``(user_id, kind, object_id)`` of ``changed`` is ``watching`` once the writing transaction commits.

    The answers are dropped at once too (which is all a test that never commits sees): a read made meanwhile may
    put back the answer from before the commit, which the one written after it then replaces."""
    keys = {_key(*item): watching for item in changed}
    if keys:
        cache.delete_many(list(keys))
        forget_tracked("default", _PREFIX)

        def written() -> None:
            cache.set_many(keys, settings.WIKI_CACHE_SECONDS)
            forget_tracked("default", _PREFIX)

        transaction.on_commit(written)

