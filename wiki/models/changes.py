from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from wiki.models.labels import field_label


class ChangeEventQuerySet(models.QuerySet["ChangeEvent"]):
    def recent(self, kind: str | None = None, *, user_id: int | None = None) -> ChangeEventQuerySet:
        """Newest first, with the user's name joined; ``kind`` narrows to one kind of object, ``user_id`` to the changes
        one account made."""
        events = self.select_related("user").only(
            "id", "kind", "action", "object_id", "label", "url", "summary", "summary_key", "summary_values", "size_delta",
            "created_at", "user__username",
        ).order_by("-created_at", "-id")
        if user_id is not None:
            events = events.filter(user_id=user_id)
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
        MOVED = "moved", _("moved")
        MERGED = "merged", _("merged")
        UNMERGED = "unmerged", _("merge undone")

    kind = models.CharField(field_label("kind"), max_length=20, choices=Kind.choices)
    action = models.CharField(_("Action"), max_length=20, choices=Action.choices)
    object_id = models.BigIntegerField(_("Object ID"))
    label = models.CharField(_("Name"), max_length=300)
    url = models.CharField(field_label("url"), max_length=500, blank=True)
    summary = models.CharField(field_label("summary"), max_length=500, blank=True)
    # When the wiki wrote the summary itself: its message and values (wiki/change_summaries.py), so that it reads in
    # each reader's language; ``summary`` holds it in English.
    summary_key = models.CharField(_("Summary's message"), max_length=40, blank=True)
    summary_values = models.JSONField(_("Summary's values"), default=dict, blank=True)
    size_delta = models.IntegerField(_("Size change"), null=True, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                             verbose_name=_("User"))
    created_at = models.DateTimeField(_("Created at"), auto_now_add=True, db_index=True)

    objects = ChangeEventQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("Recent change")
        verbose_name_plural = _("Recent changes")
        indexes = [
            models.Index(fields=["kind", "object_id"], name="changeevent_object"),
            # one account's changes, newest first, without reading everyone's
            models.Index(fields=["user", "-created_at", "-id"], name="changeevent_by_user"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.label} {self.get_action_display()}"
