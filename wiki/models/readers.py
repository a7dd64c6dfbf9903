from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext_lazy as _


def new_feed_key() -> str:
    """A random key of a profile's own for its watchlist feed's address."""
    return secrets.token_hex(16)


class ReaderProfile(models.Model):
    """A logged-in reader's language and time zone; blank means "the browser's language" and "the wiki's zone"."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reader_profile",
                                verbose_name=_("User"))
    language = models.CharField(_("language"), max_length=10, blank=True, choices=settings.LANGUAGES)
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True)
    watch_edits = models.BooleanField(_("Add pages I edit to my watchlist"), default=True)
    # Part of the watchlist feed's secret address, random from the profile's creation: without it the address would
    # follow from the account's id and the server's key alone. A new key makes the old address answer 404.
    feed_key = models.CharField(_("watchlist feed key"), max_length=32, default=new_feed_key, editable=False)

    class Meta:
        # Not "wiki_…": a reader's preference is not content, so saving it moves no content version.
        db_table = "reader_profile"
        verbose_name = _("reader profile")
        verbose_name_plural = _("reader profiles")

    def __str__(self) -> str:
        return f"{self.user} ({self.language or '-'}, {self.time_zone or '-'})"

    @property
    def feed_token(self) -> str:
        """The secret in the address of the account's watchlist feed (feed readers do not log in): derived from the
        secret key, the account and the profile's feed key, so that nothing else can guess it."""
        return salted_hmac("wiki.watchlist.feed", f"{self.user_id}:{self.feed_key}", algorithm="sha256").hexdigest()[:32]

    def opens_feed(self, token: str) -> bool:
        """Whether ``token`` is this saved profile's feed token. An account without a saved profile, or a profile
        without a key of its own, has no feed address."""
        return self.pk is not None and bool(self.feed_key) and constant_time_compare(self.feed_token, token)


def profile_of(user: object) -> ReaderProfile:
    """The account's profile, or an unsaved one holding the defaults when it has none; no query for an account read
    with its profile (as the cached account is, ``wiki.caching.users``)."""
    try:
        return user.reader_profile  # type: ignore[attr-defined, no-any-return]
    except ReaderProfile.DoesNotExist:
        return ReaderProfile(user_id=user.pk)  # type: ignore[attr-defined]
