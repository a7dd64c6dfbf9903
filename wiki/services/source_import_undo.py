"""Undoing an import as a whole: the works it created are deleted, as if the file had never been imported.

Only while nothing else uses them: a claim citing one or about one, a classification or component of it, a contrast,
an open question, a merge into or out of it, or an edit of it since the import all keep the import; the refusal names
each, and nothing is deleted. The works go for good (a deleted work would keep its arXiv ID and DOI from the next
import of the corrected file), with an entry in recent changes for each; the import's record stays, marked undone.

A fixed number of queries however many works the import created: one per kind of use.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from wiki.change_summaries import summary
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
from wiki.services.sources import sources_lock_creation

# How many uses of the works a refusal names (and then how many more there are).
NAMED_USES = 10


@dataclass(frozen=True)
class WorkUse:
    """Something that uses a work the import created: the work's short name and what uses it, as a sentence."""

    work: str
    use: str


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


def _uses(works: dict[int, Source], record: SourceImport) -> list[WorkUse]:
    """What uses each of ``works``, read in one query per kind of use (each bounded to what a refusal names)."""
    ids = list(works)
    names = {pk: work.short_name for pk, work in works.items()}
    uses: list[WorkUse] = []

    def add(pk: int | None, use: str) -> None:
        if pk is not None and pk in names:
            uses.append(WorkUse(names[pk], use))

    limit = NAMED_USES + 1
    for citation in Citation.objects.filter(source_id__in=ids).select_related("claim__page").order_by("pk")[:limit]:
        add(citation.source_id, _("cited on the page “%(page)s”") % {"page": citation.claim.page.title})
    for about in Claim.about.through.objects.filter(source_id__in=ids).select_related("claim__page").order_by("pk")[:limit]:
        add(about.source_id, _("a claim on the page “%(page)s” is about it") % {"page": about.claim.page.title})
    for classification in Classification.all_objects.filter(source_id__in=ids).order_by("pk")[:limit]:
        add(classification.source_id, _("classified since the import"))
    for component in Component.objects.filter(source_id__in=ids).order_by("pk")[:limit]:
        add(component.source_id, _("its component “%(name)s”") % {"name": component.name})
    for contrast in Contrast.all_objects.filter(Q(left_id__in=ids) | Q(right_id__in=ids)).order_by("pk")[:limit]:
        for side in (contrast.left_id, contrast.right_id):
            add(side, _("in a contrast (#%(number)s)") % {"number": contrast.pk})
    for asked in OpenQuestion.sources.through.objects.filter(source_id__in=ids).select_related("openquestion") \
            .order_by("pk")[:limit]:
        add(asked.source_id, _("linked to the question “%(question)s”") % {"question": asked.openquestion.title})
    for merge in SourceMerge.objects.filter(Q(kept_id__in=ids) | Q(merged_id__in=ids)).order_by("pk")[:limit]:
        add(merge.kept_id, _("another work was merged into it"))
        add(merge.merged_id, _("merged into another work"))
    for work in works.values():
        # bulk_create stamped the works before the record was saved: a later stamp is an edit since
        if work.updated_at > record.created_at:
            add(work.pk, _("edited since the import"))
        elif work.is_deleted:
            add(work.pk, _("deleted since the import"))
    return uses


@transaction.atomic
def source_import_undo(*, record: SourceImport, user: User | None) -> SourceImport:
    """Deletes the works ``record``'s import created and marks it undone; raises ``ValidationError`` when it is undone
    already and :class:`ImportUndoRefused` when anything else uses those works, with nothing deleted."""
    # As on creation: no page save cites one of these works between the check and the deletion.
    sources_lock_creation()
    record = SourceImport.objects.select_for_update().get(pk=record.pk)
    if record.is_undone:
        raise ValidationError(_("This import is undone already."), code="undone")
    works = {work.pk: work for work in Source.all_objects.select_for_update().filter(pk__in=record.created_ids)
             .only("id", "slug", "short_name", "updated_at", "deleted_at").order_by("pk")}
    uses = _uses(works, record)
    if uses:
        raise ImportUndoRefused(uses[:NAMED_USES], more=len(uses) > NAMED_USES)
    said = summary("import_undone", number=record.pk)
    url = reverse("wiki:import-detail", kwargs={"pk": record.pk})
    ChangeEvent.objects.bulk_create(
        change_event(kind=ChangeEvent.Kind.SOURCE, action=ChangeEvent.Action.DELETED, obj=work, label=work.short_name,
                     url=url, user=user, summary=said)
        for work in works.values()
    )
    Source.all_objects.filter(pk__in=list(works)).delete()
    search_reindex_sources(list(works))
    record.undone_at, record.undone_by = timezone.now(), account(user)
    record.save(update_fields=["undone_at", "undone_by"])
    return record
