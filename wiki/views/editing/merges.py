"""Merging a work into the one it duplicates, and undoing a merge (editors)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from wiki.forms.merges import MergeForm
from wiki.models import Source, SourceMerge
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


@editor_required("wiki.change_source", forms=[MergeForm])
def source_merge_view(request: HttpRequest, slug: str) -> HttpResponse:
    merged = get_object_or_404(Source.objects, slug=slug)
    form = MergeForm(request.POST or None, merged=merged)
    merged_here = None
    if request.method == "POST" and form.is_valid():
        kept: Source = form.cleaned_data["into"]
        try:
            source_merge(merged=merged, kept=kept, user=request.user)
        except ValidationError as error:
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
