"""Editors' API tokens, of which the wiki keeps a hash and never the key.

A key is 40 random letters and digits (about 238 bits) after ``arw_``, the mark that tells a secret scanner what it
found. With that much chance in the key, one SHA-256 is as good as a slow password hash (there is nothing to guess
from) and lets a request find its token by an index; a reader of the database or of a copy of it learns no key.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from wiki.roles import Account

KEY_PREFIX = "arw_"
KEY_RANDOM_CHARS = 40
# What the token page shows of a key: the prefix and the first few random characters.
HINT_RANDOM_CHARS = 4
MAX_NAME_CHARS = 100
# A request records its token's use when the last record is older than this: not one write per request.
LAST_USED_PRECISION = timedelta(minutes=1)


def key_digest(key: str) -> str:
    """What the database keeps of ``key``: its SHA-256, in hexadecimal."""
    return hashlib.sha256(key.encode()).hexdigest()


def key_hint(key: str) -> str:
    """The beginning of ``key`` the token page shows to tell tokens apart (a key made before ``arw_`` keys, 40
    hexadecimal digits, shows as many random characters)."""
    prefix = KEY_PREFIX if key.startswith(KEY_PREFIX) else ""
    return key[:len(prefix) + HINT_RANDOM_CHARS]


class ApiTokenQuerySet(models.QuerySet["ApiToken"]):
    def of(self, user: Account) -> ApiTokenQuerySet:
        """``user``'s tokens, the newest first."""
        return self.filter(user=user).order_by("-created_at", "-pk")

    def expired(self, *, now: datetime | None = None) -> ApiTokenQuerySet:
        return self.filter(expires_at__lte=now or timezone.now())

    def matching(self, key: str) -> ApiToken | None:
        """The token of ``key``, expired or not, with its account and the account's preferences joined; None when no
        token has that key."""
        return self.select_related("user__reader_profile").filter(digest=key_digest(key)).first()


class ApiToken(models.Model):
    """One of an editor's tokens: a name of theirs, the key's hash and hint, when it was made, last used and expires
    (never, for none). Revoking a token deletes it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens",
                             verbose_name=_("User"))
    name = models.CharField(_("Name"), max_length=MAX_NAME_CHARS, blank=True)
    digest = models.CharField(_("SHA-256 of the key"), max_length=64, unique=True)
    hint = models.CharField(_("Key begins with"), max_length=len(KEY_PREFIX) + HINT_RANDOM_CHARS)
    created_at = models.DateTimeField(_("Created at"), default=timezone.now)
    expires_at = models.DateTimeField(_("Expires at"), null=True, blank=True)
    last_used_at = models.DateTimeField(_("Last used at"), null=True, blank=True)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        # Not "wiki_…": a token is no content, and using one moves no content version.
        db_table = "api_token"
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        indexes = [models.Index(fields=["user", "-created_at"], name="api_token_user_created")]
        constraints = [
            models.CheckConstraint(condition=Q(expires_at__isnull=True) | Q(expires_at__gt=models.F("created_at")),
                                   name="api_token_expires_after_it_is_made"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.name or '-'} ({self.hint}…)"

    def is_expired(self, *, now: datetime | None = None) -> bool:
        return self.expires_at is not None and self.expires_at <= (now or timezone.now())

    def use_is_recorded(self, *, now: datetime) -> bool:
        """Whether the use at ``now`` is within :data:`LAST_USED_PRECISION` of the one recorded."""
        return self.last_used_at is not None and now - self.last_used_at < LAST_USED_PRECISION
