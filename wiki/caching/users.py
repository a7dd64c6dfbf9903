"""The logged-in reader's account, read from the cache instead of the database on every request.

Keyed by the accounts version, which every write to the accounts table moves (a login, a new password,
a deactivation) and every saved reader profile (the account carries it), so a changed account is read afresh
at once and a session whose password changed is still ended at its next request.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

from wiki.caching import versions
from wiki.caching.values import kept


class CachedModelBackend(ModelBackend):
    """Django's model backend, with ``get_user`` (run by every logged-in request) answered from the cache."""

    def get_user(self, user_id: Any) -> Any:
        return kept(f"wiki:user:{versions.accounts_version()}:{user_id}", lambda: self._load(user_id))

    def _load(self, user_id: Any) -> Any:
        # The reader's profile comes along (a join, no query more): wiki.preferences reads it on every request.
        user = get_user_model()._default_manager.select_related("reader_profile").filter(pk=user_id).first()
        return user if user is not None and self.user_can_authenticate(user) else None
