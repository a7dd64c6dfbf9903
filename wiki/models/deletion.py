"""Soft deletion of pages and works: the row stays, marked with who deleted it, when and why, so that it can
be restored exactly as it was. ``objects`` shows live rows only; ``all_objects`` (the default manager, which
Django's uniqueness checks, the admin and the backup use) shows every row."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

DELETION_FIELDS = ["deleted_at", "deleted_by", "deleted_reason"]


class Deletable(models.Model):
    deleted_at = models.DateTimeField(_("deleted at"), null=True, blank=True, editable=False, db_index=True)
    deleted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", editable=False, verbose_name=_("deleted by"))
    deleted_reason = models.CharField(_("why it was deleted"), max_length=500, blank=True, editable=False)

    class Meta:
        abstract = True

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None

    def mark_deleted(self, *, by: Any, reason: str) -> None:
        """Marks the row deleted and saves the mark (and only the mark)."""
        self.deleted_at, self.deleted_by, self.deleted_reason = timezone.now(), by, reason
        self.save(update_fields=DELETION_FIELDS)

    def mark_restored(self) -> None:
        self.deleted_at, self.deleted_by, self.deleted_reason = None, None, ""
        self.save(update_fields=DELETION_FIELDS)
