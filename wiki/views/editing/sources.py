"""Adding sources (BibTeX, arXiv, DOI or by hand) and editing them."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST

from wiki.change_summaries import summary
from wiki.forms.sources import BIBLIOGRAPHIC_PREFIX, EDITED_FIELDS, SourceForm, SourceImportForm, TakeUpdatesForm
from wiki.models import Source
from wiki.references.draft import SourceDraft, draft_from_identifier
from wiki.references.errors import ReferencesRefused
from wiki.services.changes import StaleEdit
from wiki.services.source_updates import source_take_updates
from wiki.services.sources import (
    SourceDeleted,
    SourceDuplicate,
    SourceNameTaken,
    source_create,
    source_find_duplicate,
    source_save,
    source_update,
)
from wiki.views.editing import editor_required, stale_form
from wiki.views.editing.source_imports import import_confirmed, import_preview


def _form_page(request: HttpRequest, *, import_form: SourceImportForm, form: SourceForm, status: int = 200,
               duplicate: Source | None = None, note: str = "") -> HttpResponse:
    return render(request, "wiki/edit/source_create.html",
                  {"import_form": import_form, "form": form, "duplicate": duplicate or form.duplicate, "note": note,
                   "name_taken": form.name_taken}, status=status)


def _name_taken(form: SourceForm, taken: SourceNameTaken) -> None:
    """Another work took the short name between the form's check and the save."""
    form.name_taken = taken.source
    form.add_error("short_name", _("Another work is called “%(name)s” already (%(title)s): give this one a name of its own.")
                   % {"name": taken.source.short_name, "title": taken.source.title})


def _import(request: HttpRequest, import_form: SourceImportForm) -> HttpResponse:
    data = import_form.cleaned_data
    if not data["identifier"]:
        # A reference file is previewed first: nothing is written until the editor confirms.
        upload = request.FILES.get("file")
        try:
            return import_preview(request, text=data["text"], fmt=data["format"], file_name=upload.name or "" if upload else "")
        except ReferencesRefused as refused:
            import_form.add_error(None, ValidationError(str(refused), code=refused.code))
            return _form_page(request, import_form=import_form, form=SourceForm())
    draft = draft_from_identifier(data["identifier"]) or SourceDraft()
    found = source_find_duplicate(arxiv_id=draft.arxiv_id, doi=draft.doi)
    if found is not None:
        return _form_page(request, import_form=import_form, form=SourceForm(), duplicate=found.work,  # type: ignore[arg-type]
                          note=_("This source exists already (%(reason)s).") % {"reason": found.reason})
    # Without network access the title cannot be fetched: the editor types it.
    form = SourceForm(initial=draft.as_fields())
    return _form_page(request, import_form=SourceImportForm(), form=form,
                      note=_("The identifier is filled in below; type the title (and what else you know), then save."))


@editor_required("wiki.add_source", forms=[SourceImportForm, SourceForm])
def source_create_view(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _form_page(request, import_form=SourceImportForm(), form=SourceForm())
    if "import" in request.POST:
        import_form = SourceImportForm(request.POST, request.FILES)
        if not import_form.is_valid():
            return _form_page(request, import_form=import_form, form=SourceForm())
        return _import(request, import_form)
    if "confirm" in request.POST:
        return import_confirmed(request)
    form = SourceForm(request.POST)
    if form.is_valid():
        try:
            source = source_create(draft=SourceDraft(**{name: form.cleaned_data[name] for name in EDITED_FIELDS}),
                                   user=request.user)
        except SourceNameTaken as taken:
            _name_taken(form, taken)
        except SourceDuplicate as duplicate:
            form.add_error(None, _("This source exists already (%(reason)s).") % {"reason": duplicate.reason})
            return _form_page(request, import_form=SourceImportForm(), form=form, duplicate=duplicate.source)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Added “%(name)s”. Classify it now: accept the suggestion or set the rubric.") % {"name": source.short_name})
            return redirect("wiki:classification-create", slug=source.slug)
    return _form_page(request, import_form=SourceImportForm(), form=form)


def _gone(request: HttpRequest, source: Source) -> HttpResponse:
    """The work was deleted, or merged into another, while being edited: nothing was saved. The editor's entries
    come back in the form, to copy from, with who deleted it, when and why, or the work it was merged into."""
    form = SourceForm(initial={name: value for name, value in request.POST.items()
                               if name in SourceForm.base_fields or name.startswith(BIBLIOGRAPHIC_PREFIX)})
    return render(request, "wiki/edit/source_form.html", {"form": form, "source": source, "deleted": source}, status=410)


def _source_or_404(slug: str) -> Source:
    """The work at ``slug``, deleted or merged ones too (with who deleted it and the work it was merged into)."""
    source = Source.all_objects.select_related("deleted_by", "merged_into").filter(slug=slug).first()
    if source is None:
        raise Http404
    return source


@editor_required("wiki.change_source", forms=[SourceForm])
def source_edit(request: HttpRequest, slug: str) -> HttpResponse:
    source = _source_or_404(slug)
    if source.is_deleted:
        # Opened before the deletion: what was typed is kept. Opened after: the work's address says where it went.
        return _gone(request, source) if request.method == "POST" else redirect(source)
    form = (SourceForm(request.POST or None, instance=source) if request.method == "POST"
            else SourceForm(instance=source, initial={"loaded_at": source.updated_at.isoformat()}))
    if request.method == "POST" and form.is_valid():
        # The form changed ``source`` in memory; the service locks and re-reads the row and applies the fields to it.
        try:
            saved = source_save(source=source, fields={name: form.cleaned_data[name] for name in EDITED_FIELDS},
                                user=request.user, loaded_at=form.cleaned_data["loaded_at"])
        except StaleEdit as stale:
            stale_form(form, stale, what="source")
            return render(request, "wiki/edit/source_form.html",
                          {"form": form, "source": stale.current, "stale": True}, status=409)
        except SourceDeleted as deleted:
            return _gone(request, deleted.source)
        except SourceNameTaken as taken:
            _name_taken(form, taken)
        except SourceDuplicate as duplicate:
            form.add_error(None, _("This source exists already (%(reason)s).") % {"reason": duplicate.reason})
            form.duplicate = duplicate.source
        except ValidationError as error:
            form.add_error(None, error)
        else:
            if saved.unchanged:
                messages.info(request, _("No changes to save: “%(name)s” is as it was.") % {"name": saved.source.short_name})
            else:
                messages.success(request, _("Saved “%(name)s”.") % {"name": saved.source.short_name})
            return redirect(saved.source)
    return render(request, "wiki/edit/source_form.html",
                  {"form": form, "source": source, "duplicate": form.duplicate, "name_taken": form.name_taken})


# Posts the identifiers an import found, nothing typed.
def _refusal_message(refusal: Exception, duplicate_text: str, invalid_text: str) -> str:
    """What an editor is told when a save into a work is refused: it was deleted, another work holds an identifier, or a
    value is invalid."""
    if isinstance(refusal, SourceDeleted):
        return " ".join(refusal.messages)
    if isinstance(refusal, SourceDuplicate):
        return duplicate_text % {"reason": refusal.reason, "name": refusal.source.short_name}
    assert isinstance(refusal, ValidationError)
    return invalid_text % {"errors": pgettext("clause separator", "; ").join(refusal.messages)}


@editor_required("wiki.change_source", forms=[])
@require_POST
def source_add_identifiers(request: HttpRequest, slug: str) -> HttpResponse:
    """Adds the arXiv ID or DOI of another version of the work (offered by an import), when the work has none."""
    source = _source_or_404(slug)
    fields = {name: request.POST[name].strip() for name in ("arxiv_id", "doi")
              if request.POST.get(name, "").strip() and not getattr(source, name)}
    try:
        saved = source_update(source=source, fields=fields, user=request.user, summary=summary("identifiers_added"))
    except (SourceDeleted, SourceDuplicate, ValidationError) as refusal:
        # A deleted work's address then says it is deleted, or leads to the work it was merged into.
        messages.error(request, _refusal_message(refusal, _("Not added: %(reason)s is “%(name)s”."), _("Not added: %(errors)s")))
    else:
        messages.success(request, _("“%(name)s” now has both versions' identifiers.") % {"name": saved.short_name})
    return redirect(source)


# Posts the fields an import offered that the editor ticked, with the values the file gave.
@editor_required("wiki.change_source", forms=[])
@require_POST
def source_take_updates_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Takes into the work the fields of a reference manager's record the editor ticked in an import's report."""
    source = _source_or_404(slug)
    form = TakeUpdatesForm(request.POST)
    if not form.is_valid() or not form.cleaned_data["values"]:
        messages.info(request, _("No field was ticked: “%(name)s” is as it was.") % {"name": source.short_name})
        return redirect(source)
    try:
        saved = source_take_updates(source=source, values=form.cleaned_data["values"], user=request.user,
                                    loaded_at=form.cleaned_data["loaded_at"], record=form.cleaned_data["source_import"])
    except StaleEdit:
        messages.error(request, _("“%(name)s” was changed after the import read it: nothing was taken. Import the file "
                                  "again to see what it gives now.") % {"name": source.short_name})
    except (SourceDeleted, SourceDuplicate, ValidationError) as refusal:
        messages.error(request, _refusal_message(refusal, _("Not taken: %(reason)s is “%(name)s”."), _("Not taken: %(errors)s")))
    else:
        if saved.unchanged:
            messages.info(request, _("No changes to save: “%(name)s” is as it was.") % {"name": saved.source.short_name})
        else:
            messages.success(request, _("“%(name)s” now has the fields ticked from the import.") % {"name": saved.source.short_name})
    return redirect(source)
