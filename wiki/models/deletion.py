"""Soft deletion of pages and works: the row stays, marked with who deleted it, when and why, so that it can
be restored exactly as it was. ``objects`` shows live rows only; ``all_objects`` (the default manager, which
Django's uniqueness checks, the admin and the backup use) shows every row."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Deletable(models.Model):
    deleted_at = models.DateTimeField(_("deleted at"), null=True, blank=True, editable=False, db_index=True)
    deleted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", editable=False)
    deleted_reason = models.CharField(_("why it was deleted"), max_length=500, blank=True, editable=False)

    class Meta:
        abstract = True

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None
