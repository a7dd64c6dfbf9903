from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ReaderProfile(models.Model):
    """A logged-in reader's language and time zone; blank means "the browser's language" and "the wiki's zone"."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reader_profile",
                                verbose_name=_("User"))
    language = models.CharField(_("language"), max_length=10, blank=True, choices=settings.LANGUAGES)
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True)

    class Meta:
        # Not "wiki_…": a reader's preference is not content, so saving it moves no content version.
        db_table = "reader_profile"
        verbose_name = _("reader profile")
        verbose_name_plural = _("reader profiles")

    def __str__(self) -> str:
        return f"{self.user} ({self.language or '-'}, {self.time_zone or '-'})"
