"""Undoing an import as a whole: the works it created are deleted, as if the file had never been imported.

Only while nothing else uses them: a claim citing one or about one, a classification or component of it, a contrast,
an open question, a merge into or out of it, or an edit of it since the import all keep the import; the refusal names
each, and nothing is deleted. The works go for good (a deleted work would keep its arXiv ID and DOI from the next
import of the corrected file), with an entry in recent changes for each; the import's record stays, marked undone.
The fields taken from the file into works already in the wiki (:mod:`wiki.services.source_updates`) are given back
the values they had, each unless it was edited since, as one edit of each work.

A fixed number of queries however many works the import created: one per kind of use; then one save per work given
back its fields.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from wiki.change_summaries import Summary, summary
from wiki.models import (
    ChangeEvent,
    Citation,
    Claim,
    Classification,
    Component,
    Contrast,
    OpenQuestion,
    Source,
    SourceImport,
    SourceMerge,
)
from wiki.roles import User, account
from wiki.search.index import search_reindex_sources
from wiki.services.changes import change_event
from wiki.services.source_updates import source_give_back_updates
from wiki.services.sources import SourceDuplicate, sources_lock_creation

# How many uses of the works a refusal names (and then how many more there are).
NAMED_USES = 10


@dataclass(frozen=True)
class WorkUse:
    """Something that uses a work the import created: the work's short name and what uses it, as a sentence."""

    work: str
    use: str


class ImportUndone(ValidationError):
    """The import is undone already: nothing to do again."""

    def __init__(self) -> None:
        super().__init__(_("This import is undone already."), code="undone")


class ImportUnchanging(ValidationError):
    """The import created no work and gave none a field: undoing it would change nothing."""

    def __init__(self) -> None:
        super().__init__(_("This import created no work and changed none: there is nothing to undo."),
                         code="nothing_to_undo")


class ImportUndoRefused(ValidationError):
    """The import cannot be undone: ``uses`` are what would lose a work (the first :data:`NAMED_USES`; ``more``
    when there are others)."""

    def __init__(self, uses: list[WorkUse], *, more: bool) -> None:
        shown = pgettext("clause separator", "; ").join(
            _("%(work)s: %(use)s") % {"work": use.work, "use": use.use} for use in uses)
        message = _("The import is not undone: other parts of the wiki use the works it created (%(uses)s).") % {"uses": shown}
        if more:
            message += " " + _("There are more; change these first, then try again.")
        super().__init__(message, code="in_use")
        self.uses = uses
        self.more = more


@dataclass(frozen=True)
class _Uses:
    """The rows of each kind that use any of a set of works, by the columns naming the work."""

    citations: QuerySet[Citation]
    abouts: QuerySet[Any]
    classifications: QuerySet[Classification]
    components: QuerySet[Component]
    contrasts: QuerySet[Contrast]
    questions: QuerySet[Any]
    merges: QuerySet[SourceMerge]

    @classmethod
    def of(cls, ids: Collection[int]) -> _Uses:
        return cls(
            citations=Citation.objects.filter(source_id__in=ids),
            abouts=Claim.about.through.objects.filter(source_id__in=ids),
            classifications=Classification.all_objects.filter(source_id__in=ids),
            components=Component.objects.filter(source_id__in=ids),
            contrasts=Contrast.all_objects.filter(Q(left_id__in=ids) | Q(right_id__in=ids)),
            questions=OpenQuestion.sources.through.objects.filter(source_id__in=ids),
            merges=SourceMerge.objects.filter(Q(kept_id__in=ids) | Q(merged_id__in=ids)),
        )

    def works_used(self) -> set[int]:
        """The ids of the works any of them uses: one query per kind."""
        columns = ((self.citations, ("source_id",)), (self.abouts, ("source_id",)),
                   (self.classifications, ("source_id",)), (self.components, ("source_id",)),
                   (self.contrasts, ("left_id", "right_id")), (self.questions, ("source_id",)),
                   (self.merges, ("kept_id", "merged_id")))
        return {pk for rows, named in columns for row in rows.order_by().values_list(*named).distinct() for pk in row}


def _changed_since(record: SourceImport, updated_at: datetime, deleted: bool) -> str | None:
    """Why a work ``record`` created keeps it by itself: edited since (bulk_create stamped the works before the record
    was saved, so a later stamp is an edit since) or deleted since; None when neither."""
    if updated_at > record.created_at:
        return _("edited since the import")
    return _("deleted since the import") if deleted else None


def _uses(works: dict[int, Source], record: SourceImport) -> list[WorkUse]:
    """What uses each of ``works``, read in one query per kind of use (each bounded to what a refusal names)."""
    rows = _Uses.of(list(works))
    names = {pk: work.short_name for pk, work in works.items()}
    uses: list[WorkUse] = []

    def add(pk: int | None, use: str) -> None:
        if pk is not None and pk in names:
            uses.append(WorkUse(names[pk], use))

    limit = NAMED_USES + 1
    for citation in rows.citations.select_related("claim__page").order_by("pk")[:limit]:
        add(citation.source_id, _("cited on the page “%(page)s”") % {"page": citation.claim.page.title})
    for about in rows.abouts.select_related("claim__page").order_by("pk")[:limit]:
        add(about.source_id, _("a claim on the page “%(page)s” is about it") % {"page": about.claim.page.title})
    for classification in rows.classifications.order_by("pk")[:limit]:
        add(classification.source_id, _("classified since the import"))
    for component in rows.components.order_by("pk")[:limit]:
        add(component.source_id, _("its component “%(name)s”") % {"name": component.name})
    for contrast in rows.contrasts.order_by("pk")[:limit]:
        for side in (contrast.left_id, contrast.right_id):
            add(side, _("in a contrast (#%(number)s)") % {"number": contrast.pk})
    for asked in rows.questions.select_related("openquestion").order_by("pk")[:limit]:
        add(asked.source_id, _("linked to the question “%(question)s”") % {"question": asked.openquestion.title})
    for merge in rows.merges.order_by("pk")[:limit]:
        add(merge.kept_id, _("another work was merged into it"))
        add(merge.merged_id, _("merged into another work"))
    for work in works.values():
        if (why := _changed_since(record, work.updated_at, work.is_deleted)) is not None:
            add(work.pk, why)
    return uses


def _created(record: SourceImport, *, lock: bool) -> dict[int, Source]:
    works = Source.all_objects.filter(pk__in=record.created_ids)
    if lock:
        works = works.select_for_update()
    return {work.pk: work for work in works.only("id", "slug", "short_name", "updated_at", "deleted_at").order_by("pk")}


def _refusal(record: SourceImport, works: dict[int, Source]) -> ValidationError | None:
    if record.is_undone:
        return ImportUndone()
    if not record.has_changes:
        return ImportUnchanging()
    uses = _uses(works, record)
    if uses:
        return ImportUndoRefused(uses[:NAMED_USES], more=len(uses) > NAMED_USES)
    return None


def source_import_undo_refusal(*, record: SourceImport) -> ValidationError | None:
    """Why ``record`` cannot be undone now (:class:`ImportUndone`, :class:`ImportUnchanging` or
    :class:`ImportUndoRefused`), or None when it can: what :func:`source_import_undo` would raise, read without a lock
    (one query for its works and one per kind of use)."""
    return _refusal(record, _created(record, lock=False))


def source_imports_undoable(records: Iterable[SourceImport]) -> set[int]:
    """The ids of ``records`` that :func:`source_import_undo` would undo now, as far as what uses their works tells
    (a list of imports shows it): one query for their works and one per kind of use, however many records."""
    pending = [record for record in records if not record.is_undone and record.has_changes]
    ids = {pk for record in pending for pk in record.created_ids}
    used = _Uses.of(ids).works_used() if ids else set()
    stamps = {pk: (updated_at, deleted_at is not None) for pk, updated_at, deleted_at
              in Source.all_objects.filter(pk__in=ids).values_list("pk", "updated_at", "deleted_at")} if ids else {}
    return {record.pk for record in pending
            if not set(record.created_ids) & used
            and not any(_changed_since(record, *stamps[pk]) for pk in record.created_ids if pk in stamps)}


@transaction.atomic
def source_import_undo(*, record: SourceImport, user: User | None,
                       precondition: Callable[[SourceImport], None] | None = None) -> SourceImport:
    """Deletes the works ``record``'s import created, gives the works it updated back their fields, and marks it
    undone; raises :class:`ImportUndone` when it is undone already, :class:`ImportUnchanging` when it changed nothing,
    and :class:`ImportUndoRefused` when anything else uses the works it created, with nothing changed.

    ``precondition`` is called with the record once it and every work it names are locked, before anything is
    decided: what it raises (a stale If-Match) is raised with nothing changed, and no save can land after it."""
    # As on creation: no page save cites one of these works between the check and the deletion.
    sources_lock_creation()
    record = SourceImport.objects.select_for_update().get(pk=record.pk)
    works = _created(record, lock=True)
    if precondition is not None:
        # the works given fields back are locked now too (in their order, as _give_back locks them), not only later
        list(Source.all_objects.select_for_update().filter(pk__in=record.updated_ids).order_by("pk").values_list("pk"))
        precondition(record)
    refusal = _refusal(record, works)
    if refusal is not None:
        raise refusal
    said = summary("import_undone", number=record.pk)
    url = reverse("wiki:import-detail", kwargs={"pk": record.pk})
    ChangeEvent.objects.bulk_create(
        change_event(kind=ChangeEvent.Kind.SOURCE, action=ChangeEvent.Action.DELETED, obj=work, label=work.short_name,
                     url=url, user=user, summary=said)
        for work in works.values()
    )
    Source.all_objects.filter(pk__in=list(works)).delete()
    search_reindex_sources(list(works))
    _give_back(record, user=user, said=said)
    record.undone_at, record.undone_by = timezone.now(), account(user)
    record.save(update_fields=["undone_at", "undone_by"])
    return record


def _give_back(record: SourceImport, *, user: User | None, said: Summary) -> None:
    """Gives each work the import updated back the values the file's fields replaced; a work deleted or merged since
    keeps them (its page is gone), and a value the wiki would refuse now refuses the undo."""
    for work in Source.all_objects.select_for_update().filter(pk__in=record.updated_ids).order_by("pk"):
        if work.is_deleted:
            continue
        try:
            source_give_back_updates(work=work, taken=record.updated_fields[str(work.pk)], user=user, said=said)
        except SourceDuplicate as duplicate:
            use = _("its former values would make it the same work as “%(other)s” (%(reason)s)") % {
                "other": duplicate.source.short_name, "reason": duplicate.reason}
            raise ImportUndoRefused([WorkUse(work.short_name, use)], more=False) from None
