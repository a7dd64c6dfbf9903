"""The work a deletion form or a restore button posted to a work's address was shown for. The form names the work by
its id (``source_id``), as a page's forms name their page (:mod:`wiki.views.editing.opened_pages`), so that what it
does goes to that work wherever it is now, and never to another work that took the address meanwhile (an undone
import removes the works it added, and their addresses are free again)."""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib import messages
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django_stubs_ext import StrOrPromise

from wiki.models import Source
from wiki.views.editing.opened_pages import named_id

# What a work's deletion form and restore buttons read of it: its name and address, whether it is deleted, and the
# work it was merged into, named in the answer when it was merged meanwhile.
OPENED_WORK_FIELDS = ("id", "slug", "short_name", "deleted_at", "merged_into__slug", "merged_into__short_name")


def named_source_id(request: HttpRequest) -> int | None:
    """The id of the work the posted form names, None when it names none (or nothing that is an id)."""
    return named_id(request, "source_id")


def opened_works() -> QuerySet[Source]:
    """Every work, deleted ones too, with what :data:`OPENED_WORK_FIELDS` names (the work merged into joined)."""
    return Source.all_objects.select_related("merged_into").only(*OPENED_WORK_FIELDS)


def _as_asked(source: Source, *, deleted: bool) -> bool:
    """Whether ``source`` is what the action needs: deleted and merged into none for a restore, else live."""
    return source.is_deleted and source.merged_into_id is None if deleted else not source.is_deleted


def opened_source_or_answer(request: HttpRequest, slug: str, *, said: Mapping[str, StrOrPromise],
                            deleted: bool = False) -> Source | HttpResponse:
    """The work a form posted to ``slug`` was shown for, wherever it is now (the one its ``source_id`` names; a form
    naming none, shown before forms did, the work at ``slug``); for a GET the work at ``slug``. Live, or for a restore
    (``deleted``) deleted and merged into no other work.

    When it is no longer so (deleted, restored or merged since), or no longer in the wiki, the answer saying so
    (:func:`source_changed_answer`; ``said["no_work"]``), with nothing done and no other work touched. A GET finding
    no such work at ``slug`` is a 404."""
    opened_on = named_source_id(request)
    works = opened_works()
    source = works.filter(pk=opened_on).first() if opened_on is not None else works.filter(slug=slug).first()
    if source is None and opened_on is not None:
        messages.error(request, said["no_work"])
        return redirect("wiki:home")
    if source is None or (not _as_asked(source, deleted=deleted) and request.method != "POST"):
        raise Http404
    if not _as_asked(source, deleted=deleted):
        return source_changed_answer(request, source, said=said)
    return source


def source_changed_answer(request: HttpRequest, source: Source, *, said: Mapping[str, StrOrPromise]) -> HttpResponse:
    """Nothing was done to ``source``, merged into another work meanwhile (``said["merged"]``, with the ``kept``
    work's name), deleted meanwhile (``said["deleted"]``) or restored meanwhile (``said["restored"]``): its address
    says so, a deleted work's who deleted it, when and why, a merged work's leading to the work it was merged into."""
    if source.merged_into is not None:
        message = said["merged"] % {"name": source.short_name, "kept": source.merged_into.short_name}
    else:
        message = said["deleted" if source.is_deleted else "restored"] % {"name": source.short_name}
    messages.error(request, message)
    return redirect(source)


def say_source_moved(request: HttpRequest, source: Source, slug: str, *, said: Mapping[str, StrOrPromise]) -> None:
    """When ``source`` has another address than ``slug``, where its form was shown, the message saying it was acted on
    at its new address (``said["moved"]``)."""
    if source.slug != slug:
        messages.info(request, said["moved"] % {"name": source.short_name, "old": slug, "new": source.slug})
