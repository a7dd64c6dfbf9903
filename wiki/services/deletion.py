"""Deleting and restoring pages and works (staff only): nothing is removed, so a restore gives back exactly what was.

A deleted page or work keeps its row, its revisions, claims, classifications, contrasts and questions; it is
marked with who deleted it, when and why, and every reader's query leaves it out (``Page.objects``,
``Source.objects``). Its search documents go, the pages linking to it show the link as wanted, the pages it
links to lose its link from their search importance, and the changes feed records the deletion and the restore.
Each locks the row and looks again: what someone deleted or restored meanwhile (two staff clicking at once) is left as
it is, and :class:`ChangedMeanwhile` says so.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from wiki.models import ChangeEvent, Claim, Page, PageRedirect, Source
from wiki.models.rules import is_control_free, max_length
from wiki.roles import User, account
from wiki.search.index import search_reindex_linked_pages, search_reindex_page_with_claims, search_reindex_sources
from wiki.services.changes import change_record

MAX_REASON_CHARS = max_length(Page, "deleted_reason")


def _reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": ValidationError(_("Say why it is deleted."), code="required")})
    # A line break is a control character too.
    if len(reason) > MAX_REASON_CHARS or not is_control_free(reason):
        raise ValidationError({"reason": ValidationError(
            _("A reason is one line of at most %(limit)d characters."), code="invalid", params={"limit": MAX_REASON_CHARS})})
    return reason


class ChangedMeanwhile(ValidationError):
    """``obj``, a page or a work, was deleted, restored or merged into another work since the caller read it: nothing
    was done. ``obj`` is the row as it is now; ``code`` says what was found: ``deleted`` (deleted already),
    ``not_deleted`` (restored already) or ``merged`` (a deleted work merged into another, which a restore leaves)."""

    def __init__(self, message: str, *, obj: Page | Source, code: str) -> None:
        super().__init__(message, code=code)
        self.obj = obj


def _rerender_linking(page: Page) -> None:
    from wiki.services.pages import pages_rerender_linking

    # A link to a deleted page reads as wanted (or leads to another page of its title); to a restored one, as a link
    # again. Links naming one of its former addresses or titles do too: while it is deleted they are stored under the
    # name they typed, which is no address of the page.
    former = PageRedirect.objects.filter(page=page).values_list("slug", flat=True)
    pages_rerender_linking(page, also=list(former))


def _reindex_linked(page: Page) -> None:
    # Importance counts the links of live pages only: ``page``'s links now count, or no longer do.
    search_reindex_linked_pages(page.outgoing_links.values_list("target_slug", flat=True))


@transaction.atomic
def page_delete(*, page: Page, user: User | None, reason: str) -> Page:
    reason = _reason(reason)
    page = Page.all_objects.select_for_update().get(pk=page.pk)
    if page.is_deleted:
        raise ChangedMeanwhile(_("This page is deleted already."), obj=page, code="deleted")
    page.mark_deleted(by=account(user), reason=reason)
    change_record(kind=ChangeEvent.Kind.PAGE, action=ChangeEvent.Action.DELETED, obj=page, label=page.title,
                  url=page.get_absolute_url(), user=user, summary=reason)
    search_reindex_page_with_claims(page.pk)
    _reindex_linked(page)
    _rerender_linking(page)
    return page


@transaction.atomic
def page_restore(*, page: Page, user: User | None) -> Page:
    page = Page.all_objects.select_for_update().get(pk=page.pk)
    if not page.is_deleted:
        raise ChangedMeanwhile(_("This page is not deleted."), obj=page, code="not_deleted")
    page.mark_restored()
    change_record(kind=ChangeEvent.Kind.PAGE, action=ChangeEvent.Action.RESTORED, obj=page, label=page.title,
                  url=page.get_absolute_url(), user=user)
    search_reindex_page_with_claims(page.pk)
    _reindex_linked(page)
    _rerender_linking(page)
    return page


@transaction.atomic
def source_delete(*, source: Source, user: User | None, reason: str) -> Source:
    """Refused while a claim of a page still cites the work: its citation would point nowhere (merge it instead)."""
    reason = _reason(reason)
    source = Source.all_objects.select_for_update().get(pk=source.pk)
    if source.is_deleted:
        raise ChangedMeanwhile(_("This work is deleted already."), obj=source, code="deleted")
    citing = Claim.objects.citing(source.pk).count()
    if citing:
        raise ValidationError(ngettext(
            "%(count)d claim cites this work: change its citation, or merge this work into the one it duplicates.",
            "%(count)d claims cite this work: change their citations, or merge this work into the one it duplicates.",
            citing) % {"count": citing}, code="cited")
    source.mark_deleted(by=account(user), reason=reason)
    change_record(kind=ChangeEvent.Kind.SOURCE, action=ChangeEvent.Action.DELETED, obj=source, label=source.short_name,
                  url=source.get_absolute_url(), user=user, summary=reason)
    search_reindex_sources([source.pk])
    return source


class SourceRestoreClash(ValidationError):
    """A live work, ``live``, was added as this one while it was deleted (same identifier or title, or its short
    name): restoring it would make two. ``reason`` says what they share."""

    def __init__(self, *, source: Source, live: Source, reason: str) -> None:
        super().__init__(
            _("“%(name)s” is not restored: the live work “%(live)s” was added as it meanwhile (%(reason)s). If they are "
              "one work, restore it merged into “%(live)s”; otherwise change “%(live)s” first.")
            % {"name": source.short_name, "live": live.short_name, "reason": reason},
            code="duplicate",
        )
        self.source = source
        self.live = live
        self.reason = reason


def source_restore_clash(source: Source) -> SourceRestoreClash | None:
    """Why ``source`` (deleted) cannot come back as it is: the live work that is the same work, or has its short name."""
    from wiki.services.sources import SourceNameTaken, source_find_duplicate, source_named

    found = source_find_duplicate(arxiv_id=source.arxiv_id, doi=source.doi, title=source.title, year=source.year,
                                  authors=source.authors, exclude_pk=source.pk)
    if found is not None:
        return SourceRestoreClash(source=source, live=found.work, reason=found.reason)  # type: ignore[arg-type]
    named = source_named(source.short_name, exclude_pk=source.pk)
    if named is not None:
        return SourceRestoreClash(source=source, live=named, reason=SourceNameTaken(named).reason)
    return None


@transaction.atomic
def source_restore(*, source: Source, user: User | None, merge_into: Source | None = None) -> Source:
    """Restores a deleted work; returns it, or, with ``merge_into``, the live work it was merged into.

    A live work added meanwhile as the same work, or with its short name, makes this a duplicate: refused with
    :class:`SourceRestoreClash`, unless ``merge_into`` is that work, when the restored work is merged into it at once
    (everything it had moves there, its address leads there, and the merge can be undone)."""
    from wiki.services.merges import source_merge
    from wiki.services.sources import sources_lock_creation

    # As on creation: no work is added as this one between the check and the restore.
    sources_lock_creation()
    source = Source.all_objects.select_for_update().get(pk=source.pk)
    if not source.is_deleted:
        raise ChangedMeanwhile(_("This work is not deleted."), obj=source, code="not_deleted")
    if source.merged_into_id is not None:
        raise ChangedMeanwhile(_("This work was merged into another: undo the merge instead."), obj=source,
                               code="merged")
    clash = source_restore_clash(source)
    if clash is not None and (merge_into is None or merge_into.pk != clash.live.pk):
        raise clash
    source.mark_restored()
    change_record(kind=ChangeEvent.Kind.SOURCE, action=ChangeEvent.Action.RESTORED, obj=source, label=source.short_name,
                  url=source.get_absolute_url(), user=user)
    search_reindex_sources([source.pk])
    if clash is not None:
        source_merge(merged=source, kept=clash.live, user=user)
        return clash.live
    return source
