"""Merging a work into the one it duplicates, and undoing a merge (editors)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from wiki.forms.merges import MergeFieldsForm, MergeForm
from wiki.models import Source, SourceMerge
from wiki.services.changes import StaleEdit
from wiki.services.merge_fields import merge_field_choices
from wiki.services.merges import MergeAlreadyUndone, source_merge, source_merge_undo, source_merged_here
from wiki.views.editing import editor_required


def _merged_here(form: MergeForm, merged: Source) -> SourceMerge | None:
    """When the address typed is of a work merged into this one (the form knows no live work there), that merge:
    the editor is told so, with the work and the undo, rather than that no work has that address."""
    unknown = [error for error in form.errors.as_data().get("into", []) if error.code == "unknown"]
    if not unknown or not unknown[0].params:
        return None
    merge = source_merged_here(slug=str(unknown[0].params["slug"]), kept=merged)
    if merge is not None:
        form.errors["into"] = form.error_class([
            _("“%(earlier)s” was merged into this work, “%(name)s”: it cannot be merged back into it. To have it "
              "apart again, undo that merge.") % {"earlier": merge.merged.short_name, "name": merged.short_name}])
    return merge


def _compare(request: HttpRequest, *, merged: Source, kept: Source, form: MergeForm, fields: MergeFieldsForm | None = None,
             changed: bool = False, status: int = 200) -> HttpResponse:
    """The two works' values side by side, field by field, each to keep or take (the kept work's chosen unless the
    editor picks the other), before the merge is made."""
    if fields is None:
        fields = MergeFieldsForm(choices=merge_field_choices(kept=kept, merged=merged),
                                 initial={"kept_at": kept.updated_at, "merged_at": merged.updated_at})
    return render(request, "wiki/edit/source_merge_fields.html",
                  {"source": merged, "kept": kept, "form": form, "fields": fields, "changed": changed}, status=status)


@editor_required("wiki.change_source", forms=[MergeForm])
def source_merge_view(request: HttpRequest, slug: str) -> HttpResponse:
    """The work to keep; then, when the two works give a field otherwise, the value the kept work takes of each; then
    the merge."""
    merged = get_object_or_404(Source.objects, slug=slug)
    form = MergeForm(request.POST or None, merged=merged)
    merged_here = None
    if request.method == "POST" and form.is_valid():
        kept: Source = form.cleaned_data["into"]
        choices = merge_field_choices(kept=kept, merged=merged)
        if "compared" not in request.POST and choices:
            return _compare(request, merged=merged, kept=kept, form=form)
        fields = MergeFieldsForm(request.POST, choices=choices)
        if "compared" in request.POST and not fields.is_valid():
            return _compare(request, merged=merged, kept=kept, form=form, fields=fields, status=400)
        try:
            source_merge(merged=merged, kept=kept, user=request.user, take=fields.taken() if choices else (),
                         seen=fields.seen(kept=kept, merged=merged) if "compared" in request.POST else None)
        except StaleEdit:
            # One of the works was saved since the editor compared them: compared again, as they are now.
            kept, merged = Source.all_objects.get(pk=kept.pk), Source.all_objects.get(pk=merged.pk)
            return _compare(request, merged=merged, kept=kept, form=form, changed=True, status=409)
        except ValidationError as error:
            if "compared" in request.POST and choices:
                fields.add_error(None, error)
                return _compare(request, merged=merged, kept=kept, form=form, fields=fields, status=400)
            form.add_error(None, error)
        else:
            messages.success(request, _("“%(merged)s” is merged into “%(kept)s”; its address leads here. The merge can be undone below.")
                             % {"merged": merged.short_name, "kept": kept.short_name})
            return redirect(kept)
    elif request.method == "POST":
        merged_here = _merged_here(form, merged)
    return render(request, "wiki/edit/source_merge.html", {"source": merged, "form": form, "merged_here": merged_here},
                  status=400 if form.errors else 200)


@editor_required("wiki.change_source")
def source_merge_undo_view(request: HttpRequest, pk: int) -> HttpResponse:
    merge = get_object_or_404(SourceMerge.objects.select_related("kept", "merged", "user"), pk=pk)
    if request.method != "POST":
        return render(request, "wiki/edit/source_merge_undo.html", {"merge": merge, "moved": {k: len(v) for k, v in merge.moved.items()}})
    try:
        merged = source_merge_undo(merge=merge, user=request.user)
    except MergeAlreadyUndone:
        # Asked twice (a second click, another editor first): what was asked for is done, so it is news, not an error.
        messages.info(request, _("This merge was undone already: “%(name)s” is back at its own address.") % {"name": merge.merged.short_name})
        return redirect(merge.merged)
    except ValidationError as error:
        messages.error(request, error.messages[0])
        return redirect(merge.kept)
    messages.success(request, _("The merge is undone: “%(name)s” is back with what it had.") % {"name": merged.short_name})
    return redirect(merged)
