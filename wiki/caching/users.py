"""The logged-in reader's account, read from the cache instead of the database on every request.

Keyed by the accounts version, which every write to the accounts table moves (a login, a new password,
a deactivation), so a changed account is read afresh at once and a session whose password changed is
still ended at its next request.
"""

from __future__ import annotations

import pickle
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache

from wiki.caching import versions
from wiki.caching.local import copies


class CachedModelBackend(ModelBackend):
    """Django's model backend, with ``get_user`` (run by every logged-in request) answered from the cache."""

    def get_user(self, user_id: Any) -> Any:
        key = f"wiki:user:{versions.accounts_version()}:{user_id}"
        raw = copies.get(key)
        if raw is None:
            raw = cache.get(key)
            if raw is None:
                user = super().get_user(user_id)
                if user is None:
                    return None
                raw = pickle.dumps(user, protocol=pickle.HIGHEST_PROTOCOL)
                cache.set(key, raw, settings.WIKI_CACHE_SECONDS)
            copies.put(key, raw, len(raw))
        return pickle.loads(raw)  # type: ignore[arg-type]  # what super().get_user returned for the key
