from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from wiki.models.pages import Page
from wiki.models.questions import OpenQuestion
from wiki.models.sources import Source

Watchable = Page | Source | OpenQuestion
# What a reader can watch, by the kind of change that names it (``ChangeEvent.Kind``) and the watch's field for it.
WATCHED_KINDS = ("page", "source", "question")


def watch_kind(target: Watchable) -> str:
    """The kind of ``target`` as changes and watches name it: ``page``, ``source`` or ``question``."""
    return "page" if isinstance(target, Page) else "source" if isinstance(target, Source) else "question"


class WatchQuerySet(models.QuerySet["Watch"]):
    def of(self, user_id: int) -> WatchQuerySet:
        return self.filter(user_id=user_id)

    def for_listing(self) -> WatchQuerySet:
        """Pages, then works, then questions, each by name, with what a row of the list shows joined (the item's
        name, address, and whether it was deleted or merged, and into which work) in the same query."""
        return self.select_related("page", "source__merged_into", "question").only(
            "id", "user_id", "created_at",
            "page__id", "page__slug", "page__title", "page__deleted_at",
            "source__id", "source__slug", "source__short_name", "source__deleted_at",
            "source__merged_into__id", "source__merged_into__slug", "source__merged_into__short_name",
            "question__id", "question__title",
        ).order_by("page__title_sort", "source__name_sort", "question__title_sort", "id")


class Watch(models.Model):
    """A reader's watch on a page, a work or an open question: its changes are listed on their watchlist.

    Exactly one of ``page``, ``source`` and ``question`` is set."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="watches",
                             verbose_name=_("User"))
    page = models.ForeignKey("wiki.Page", null=True, blank=True, on_delete=models.CASCADE, related_name="+",
                             verbose_name=_("Page"))
    source = models.ForeignKey("wiki.Source", null=True, blank=True, on_delete=models.CASCADE, related_name="+",
                               verbose_name=_("Work"))
    question = models.ForeignKey("wiki.OpenQuestion", null=True, blank=True, on_delete=models.CASCADE, related_name="+",
                                 verbose_name=_("Open question"))
    created_at = models.DateTimeField(_("Created at"), auto_now_add=True)

    objects = WatchQuerySet.as_manager()

    class Meta:
        # Not "wiki_…": a watch is a reader's own, not content, so adding one moves no content version.
        db_table = "reader_watch"
        verbose_name = _("watch")
        verbose_name_plural = _("watches")
        constraints = [
            models.CheckConstraint(
                condition=(models.Q(page__isnull=False, source__isnull=True, question__isnull=True)
                           | models.Q(page__isnull=True, source__isnull=False, question__isnull=True)
                           | models.Q(page__isnull=True, source__isnull=True, question__isnull=False)),
                name="watch_one_target",
            ),
            models.UniqueConstraint(fields=["user", "page"], name="watch_unique_page"),
            models.UniqueConstraint(fields=["user", "source"], name="watch_unique_source"),
            models.UniqueConstraint(fields=["user", "question"], name="watch_unique_question"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} → {self.kind} {self.target_id}"

    @property
    def kind(self) -> str:
        return "page" if self.page_id else "source" if self.source_id else "question"

    @property
    def target_id(self) -> int:
        return int(self.page_id or self.source_id or self.question_id or 0)

    @property
    def target(self) -> Watchable | None:
        """The page, work or question (loaded with the watch by :meth:`WatchQuerySet.for_listing`)."""
        return self.page or self.source or self.question
