from __future__ import annotations

from datetime import date, datetime

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy as _

from wiki.models.labels import field_label

# A page's changes that save a revision: an entry of one of these is followed by the revision it saved.
REVISION_ACTIONS = ("created", "edited", "reverted", "imported")


class ChangeEventQuerySet(models.QuerySet["ChangeEvent"]):
    def recent(self, kind: str | None = None, *, user_id: int | None = None, since: datetime | None = None,
               hiding_user_id: int | None = None) -> ChangeEventQuerySet:
        """Newest first, with the user's name joined; ``kind`` narrows to one kind of object, ``user_id`` to the changes
        one account made, ``since`` to those made from then on; ``hiding_user_id`` leaves out one account's."""
        events = self.select_related("user").only(
            "id", "kind", "action", "object_id", "label", "url", "summary", "summary_key", "summary_values", "size_delta",
            "minor", "created_at", "user__username",
        ).order_by("-created_at", "-id")
        if user_id is not None:
            events = events.filter(user_id=user_id)
        if hiding_user_id is not None:
            events = events.exclude(user_id=hiding_user_id)
        if since is not None:
            events = events.filter(created_at__gte=since)
        return events.filter(kind=kind) if kind else events

    def made_after(self, moment: datetime) -> ChangeEventQuerySet:
        """The changes made after ``moment`` (not at it): what a mirror that read the wiki then has not seen."""
        return self.filter(created_at__gt=moment)

    def latest_per_object(self) -> ChangeEventQuerySet:
        """Of these changes, only the latest to each object (a page, a work, a claim…), in one query: the others
        are left out by a subquery of the same changes, one per object (PostgreSQL's DISTINCT ON)."""
        latest = self.order_by("kind", "object_id", "-created_at", "-id").distinct("kind", "object_id").values("pk")
        return self.filter(pk__in=latest)

    def watched_by(self, user_id: int) -> ChangeEventQuerySet:
        """The changes to what the account watches (its watchlist): a watched page's edits, moves, deletions and its
        claims' changes; a watched work's edits, its classifications and contrasts, and the merges of other works
        into it; a watched question's changes. One query however many items are watched: each kind is a subquery of
        the account's watches."""
        from wiki.models.claims import Claim
        from wiki.models.classifications import Classification, Contrast
        from wiki.models.merges import SourceMerge
        from wiki.models.watches import Watch

        watches = Watch.objects.of(user_id)
        pages = watches.filter(page__isnull=False).values("page_id")
        sources = watches.filter(source__isnull=False).values("source_id")
        questions = watches.filter(question__isnull=False).values("question_id")
        kind, merges = ChangeEvent.Kind, (ChangeEvent.Action.MERGED, ChangeEvent.Action.UNMERGED)
        return self.filter(
            models.Q(kind=kind.PAGE, object_id__in=pages)
            | models.Q(kind=kind.CLAIM, object_id__in=Claim.objects.filter(page_id__in=pages).values("pk"))
            | models.Q(kind=kind.SOURCE, object_id__in=sources)
            | models.Q(kind=kind.SOURCE, action__in=merges,
                       object_id__in=SourceMerge.objects.filter(kept_id__in=sources).values("merged_id"))
            | models.Q(kind=kind.CLASSIFICATION,
                       object_id__in=Classification.all_objects.filter(source_id__in=sources).values("pk"))
            | models.Q(kind=kind.CONTRAST, object_id__in=Contrast.all_objects.filter(
                models.Q(left_id__in=sources) | models.Q(right_id__in=sources)).values("pk"))
            | models.Q(kind=kind.QUESTION, object_id__in=questions)
        )

    def with_history(self) -> ChangeEventQuerySet:
        """Annotates in the same query what each entry's diff and history links need (:meth:`ChangeEvent.diff_url`,
        :meth:`ChangeEvent.revision_url`, :meth:`ChangeEvent.history_url`): a page's slug now (none once deleted) and,
        for a change that saved a revision, its number (the page's latest revision saved by then: the service saves
        the revision, then the entry); whether a claim has a history or a classification one to show."""
        from wiki.models.claims import ClaimRevision
        from wiki.models.classifications import ClassificationChange
        from wiki.models.pages import Page, Revision

        page = models.Q(kind=ChangeEvent.Kind.PAGE)
        slug = Page.objects.filter(pk=models.OuterRef("object_id")).values("slug")[:1]
        number = (Revision.objects.filter(page_id=models.OuterRef("object_id"), created_at__lte=models.OuterRef("created_at"))
                  .order_by("-number").values("number")[:1])
        claim_history = ClaimRevision.objects.filter(claim_id=models.OuterRef("object_id"))
        classification_history = ClassificationChange.objects.filter(
            classification_id=models.OuterRef("object_id"), classification__source__deleted_at__isnull=True)
        return self.annotate(
            page_slug=models.Case(models.When(page, then=models.Subquery(slug))),
            revision_number=models.Case(models.When(page & models.Q(action__in=REVISION_ACTIONS),
                                                    then=models.Subquery(number))),
            has_history=models.Case(
                models.When(kind=ChangeEvent.Kind.CLAIM, then=models.Exists(claim_history)),
                models.When(kind=ChangeEvent.Kind.CLASSIFICATION, then=models.Exists(classification_history)),
                default=models.Value(False),
            ),
        )


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
    # A page's edit whose revision its editor marked minor (Revision.minor), kept here too so that a list hides
    # minor edits without reading the revisions.
    minor = models.BooleanField(_("Minor edit"), default=False)
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
        constraints = [
            models.CheckConstraint(condition=models.Q(minor=False) | ~models.Q(action="created"),
                                   name="changeevent_creation_not_minor"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.label} {self.get_action_display()}"

    @property
    def local_day(self) -> date:
        """The day it was made on in the reader's time zone."""
        return timezone.localtime(self.created_at).date()

    # The links below read what ChangeEventQuerySet.with_history() annotated; without it there are none.
    def _revision(self) -> tuple[str, int] | None:
        slug, number = getattr(self, "page_slug", None), getattr(self, "revision_number", None)
        return (slug, number) if slug and number else None

    def diff_url(self) -> str:
        """A page's revision against the one before it; "" when it made none or the page's first."""
        revision = self._revision()
        if revision is None or revision[1] < 2 or self.action == self.Action.CREATED:
            return ""
        slug, number = revision
        return f"{reverse('wiki:page-diff', kwargs={'slug': slug})}?{urlencode({'from': number - 1, 'to': number})}"

    def revision_url(self) -> str:
        """The revision a page's creation saved; "" for any other change."""
        revision = self._revision()
        if revision is None or self.action != self.Action.CREATED:
            return ""
        return reverse("wiki:page-revision", kwargs={"slug": revision[0], "number": revision[1]})

    def page_url(self) -> str:
        """A page's change: the page's address, where it is now when known (``with_history``), else where it was
        then (a former address leads to it); "" for any other change."""
        if self.kind != self.Kind.PAGE:
            return ""
        slug = getattr(self, "page_slug", None)
        return reverse("wiki:page-detail", kwargs={"slug": slug}) if slug else self.url

    def history_url(self) -> str:
        """Where the object's history is read: a page's (while it is not deleted), a claim's, a classification's."""
        if self.kind == self.Kind.PAGE:
            slug = getattr(self, "page_slug", None)
            return reverse("wiki:page-history", kwargs={"slug": slug}) if slug else ""
        if not getattr(self, "has_history", False):
            return ""
        if self.kind == self.Kind.CLAIM:
            return f"{reverse('wiki:claim-detail', kwargs={'pk': self.object_id})}#history-heading"
        return reverse("wiki:classification-history", kwargs={"pk": self.object_id})
