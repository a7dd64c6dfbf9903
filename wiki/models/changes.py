from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ChangeEventQuerySet(models.QuerySet["ChangeEvent"]):
    def recent(self, kind: str | None = None) -> ChangeEventQuerySet:
        """Newest first, with the user's name joined; ``kind`` narrows to one kind of object."""
        events = self.select_related("user").only(
            "id", "kind", "action", "object_id", "label", "url", "summary", "summary_key", "summary_values", "size_delta",
            "created_at", "user__username",
        ).order_by("-created_at", "-id")
        return events.filter(kind=kind) if kind else events


class ChangeEvent(models.Model):
    """One entry of recent changes, written by the services for every kind of object."""

    class Kind(models.TextChoices):
        PAGE = "page", _("Page")
        SOURCE = "source", _("Source")
        CLAIM = "claim", _("Claim")
        CLASSIFICATION = "classification", _("Classification")
        CONTRAST = "contrast", _("Contrast")
        QUESTION = "question", _("Open question")
        FINDING = "finding", _("Consistency finding")
        GLOSSARY = "glossary", _("Glossary term")

    class Action(models.TextChoices):
        CREATED = "created", _("created")
        EDITED = "edited", _("edited")
        REVERTED = "reverted", _("reverted")
        IMPORTED = "imported", _("imported")
        DELETED = "deleted", _("deleted")
        DISMISSED = "dismissed", _("dismissed")
        REOPENED = "reopened", _("reopened")
        RESTORED = "restored", _("restored")
        MERGED = "merged", _("merged")
        UNMERGED = "unmerged", _("merge undone")

    kind = models.CharField(max_length=20, choices=Kind.choices)
    action = models.CharField(max_length=20, choices=Action.choices)
    object_id = models.BigIntegerField()
    label = models.CharField(max_length=300)
    url = models.CharField(max_length=500, blank=True)
    summary = models.CharField(max_length=500, blank=True)
    # When the wiki wrote the summary itself: its message and values (wiki/change_summaries.py), so that it reads in
    # each reader's language; ``summary`` holds it in English.
    summary_key = models.CharField(max_length=40, blank=True)
    summary_values = models.JSONField(default=dict, blank=True)
    size_delta = models.IntegerField(null=True, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    objects = ChangeEventQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["kind", "object_id"], name="changeevent_object")]

    def __str__(self) -> str:
        return f"{self.kind} {self.label} {self.action}"
