"""Importing a reference file on the web in two steps, a preview and its confirmation, and the history of imports,
where one is undone as a whole."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from wiki.field_labels import field_label_of
from wiki.forms.imports import SourceImportConfirmForm
from wiki.forms.sources import SourceImportForm
from wiki.models import SourceImport
from wiki.paginator import Paginator
from wiki.references.errors import ReferencesRefused
from wiki.references.formats import MAX_IMPORT_ENTRIES, ReferenceFormat
from wiki.services.source_import import (
    ImportChanged,
    ImportReport,
    ImportStatus,
    sources_import,
    sources_import_preview,
)
from wiki.services.source_import_undo import ImportUndoRefused, source_import_undo, source_imports_undoable
from wiki.services.source_updates import fields_taken
from wiki.text.lists import joined
from wiki.views.editing import editor_required
from wiki.views.listing import PER_PAGE


def import_preview(request: HttpRequest, *, text: str, fmt: ReferenceFormat | None, file_name: str,
                   changed: bool = False) -> HttpResponse:
    """What importing the file would do, entry by entry, and the form that confirms it (the file sent back as it
    was, with the digest of what is shown); raises ``ReferencesRefused`` for a file that cannot be imported at all."""
    report = sources_import_preview(text=text, fmt=fmt)
    confirm = SourceImportConfirmForm(initial={"text": text, "format": report.format.value, "file_name": file_name,
                                               "digest": report.digest})
    context = {"report": report, "confirm_form": confirm, "changed": changed, "per_request": MAX_IMPORT_ENTRIES,
               "updates": sum(1 for result in report.results if result.updates),
               "retry_form": _retry_form(report) if report.refuses_all else None}
    return render(request, "wiki/edit/source_import_preview.html", context, status=409 if changed else 200)


def import_confirmed(request: HttpRequest) -> HttpResponse:
    """Imports the file previewed, if it would still do what the preview showed; else the preview again, as it is
    now, with nothing written."""
    form = SourceImportConfirmForm(request.POST)
    if not form.is_valid():
        said = form.errors.get("digest") if "digest" in form.errors and "text" not in form.errors else None
        return _form_page(request, error=str(said[0]) if said else _(
            "The confirmation did not carry the file previewed: import the file again."))
    data = form.cleaned_data
    try:
        report = sources_import(text=data["text"], fmt=data["reference_format"], user=request.user,
                                expect=data["digest"], via=SourceImport.Via.WEB, file_name=data["file_name"])
    except ImportChanged:
        return _preview_or_refusal(request, data["text"], data["reference_format"], data["file_name"], changed=True)
    except ReferencesRefused as refused:
        return _form_page(request, error=str(refused))
    return _results(request, report, status=400 if report.refuses_all else 200)


def _preview_or_refusal(request: HttpRequest, text: str, fmt: ReferenceFormat | None, file_name: str, *,
                        changed: bool = False) -> HttpResponse:
    try:
        return import_preview(request, text=text, fmt=fmt, file_name=file_name, changed=changed)
    except ReferencesRefused as refused:
        return _form_page(request, error=str(refused))


def _form_page(request: HttpRequest, *, error: str) -> HttpResponse:
    """The page the import started from, saying why the confirmation imported nothing (400)."""
    from wiki.forms.sources import SourceForm

    return render(request, "wiki/edit/source_create.html",
                  {"import_form": SourceImportForm(), "form": SourceForm(), "import_error": error}, status=400)


def _results(request: HttpRequest, report: ImportReport, *, status: int = 200) -> HttpResponse:
    return render(request, "wiki/edit/source_import_results.html",
                  {"report": report, "retry_form": _retry_form(report)}, status=status)


def _retry_form(report: ImportReport) -> SourceImportForm | None:
    """The entries that were refused in the import box, as written, to be fixed and imported again."""
    failed = "\n\n".join(r.raw for r in report.of(ImportStatus.REFUSED) if r.raw)
    return SourceImportForm(initial={"entry": failed}) if failed else None


@editor_required("wiki.add_source", forms=[])
def import_list(request: HttpRequest) -> HttpResponse:
    """Every import, newest first: who, when, through what, what came of its entries, and whether it can be undone
    now (a fixed number of queries a page)."""
    page_obj = Paginator(SourceImport.objects.for_history(), PER_PAGE).get_page(request.GET.get("p"))
    undoable = source_imports_undoable(page_obj)
    return render(request, "wiki/imports/import_list.html", {"page_obj": page_obj, "undoable": undoable})


def _detail(request: HttpRequest, record: SourceImport, *, refusal: ImportUndoRefused | None = None,
            status: int = 200) -> HttpResponse:
    works = record.works_created().only("id", "slug", "short_name", "title", "year", "deleted_at")
    page_obj = Paginator(works, PER_PAGE).get_page(request.GET.get("p"))
    # The works it gave fields (the first PER_PAGE by id: an import updates far fewer than it creates), with their labels.
    updated = list(record.works_updated(sorted(record.updated_ids)[:PER_PAGE]).only("id", "slug", "short_name", "deleted_at"))
    taken = [(work, joined(field_label_of(name) for name, _before, _after in fields_taken(record, work.pk)))
             for work in updated]
    return render(request, "wiki/imports/import_detail.html",
                  {"record": record, "page_obj": page_obj, "refusal": refusal, "taken": taken,
                   "more_taken": len(record.updated_fields) - len(taken)}, status=status)


@editor_required("wiki.add_source", forms=[])
def import_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """One import: its record and the works it created still in the wiki, paginated, with the form that undoes it."""
    return _detail(request, get_object_or_404(SourceImport.objects.for_history(), pk=pk))


@editor_required("wiki.add_source", forms=[])
@require_POST
def import_undo(request: HttpRequest, pk: int) -> HttpResponse:
    """Deletes the works the import created, when nothing else uses them, and gives back the fields it took into works
    already in the wiki; otherwise says what uses them (409)."""
    record = get_object_or_404(SourceImport.objects.for_history(), pk=pk)
    try:
        source_import_undo(record=record, user=request.user)
    except ImportUndoRefused as refusal:
        return _detail(request, record, refusal=refusal, status=409)
    except ValidationError as error:
        messages.info(request, error.messages[0])
        return redirect(record)
    count = len(record.created_ids)
    if count or not record.updated_fields:
        messages.success(request, ngettext("Import #%(number)s is undone: the %(count)s work it created is deleted.",
                                           "Import #%(number)s is undone: the %(count)s works it created are deleted.",
                                           count) % {"number": record.pk, "count": count})
    if record.updated_fields:
        updated = len(record.updated_fields)
        messages.success(request, ngettext(
            "Import #%(number)s: the fields it took into %(count)s work already in the wiki are given back, each unless "
            "it was edited since.",
            "Import #%(number)s: the fields it took into %(count)s works already in the wiki are given back, each unless "
            "it was edited since.", updated) % {"number": record.pk, "count": updated})
    return redirect("wiki:import-list")
