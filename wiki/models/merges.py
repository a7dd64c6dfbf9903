from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class SourceMergeQuerySet(models.QuerySet["SourceMerge"]):
    def active_into(self, source_id: int) -> SourceMergeQuerySet:
        """The merges into a work not undone, newest first, with the merged work and the user joined."""
        return self.filter(kept_id=source_id, undone_at__isnull=True).select_related("merged", "user").order_by("-created_at", "-id")


class SourceMerge(models.Model):
    """Two works found to be one: what pointed at ``merged`` was moved to ``kept``.

    ``moved`` records exactly which rows moved (and which links were dropped because ``kept`` had them
    already), so that undoing the merge moves back those and only those.
    """

    kept = models.ForeignKey("wiki.Source", on_delete=models.CASCADE, related_name="merges_in", verbose_name=_("Work kept"))
    merged = models.ForeignKey("wiki.Source", on_delete=models.CASCADE, related_name="merges_out",
                               verbose_name=_("Work merged into it"))
    moved = models.JSONField(_("What moved"), default=dict, help_text=_("The ids of what moved, to move back on undo."))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                             verbose_name=_("User"))
    created_at = models.DateTimeField(_("Created at"), auto_now_add=True)
    undone_at = models.DateTimeField(_("Undone at"), null=True, blank=True)
    undone_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                  verbose_name=_("Undone by"))

    objects = SourceMergeQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("Merge of works")
        verbose_name_plural = _("Merges of works")
        constraints = [models.CheckConstraint(condition=~models.Q(kept=models.F("merged")), name="sourcemerge_two_works")]

    def __str__(self) -> str:
        return f"{self.merged_id} → {self.kept_id}"
