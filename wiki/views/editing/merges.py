"""Merging a work into the one it duplicates, and undoing a merge (editors)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from wiki.forms.merges import MergeForm
from wiki.models import Source, SourceMerge
from wiki.services.merges import source_merge, source_merge_undo
from wiki.views.editing import editor_required


@editor_required("wiki.change_source")
def source_merge_view(request: HttpRequest, slug: str) -> HttpResponse:
    merged = get_object_or_404(Source.objects, slug=slug)
    form = MergeForm(request.POST or None, merged=merged)
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
    return render(request, "wiki/edit/source_merge.html", {"source": merged, "form": form}, status=400 if form.errors else 200)


@editor_required("wiki.change_source")
def source_merge_undo_view(request: HttpRequest, pk: int) -> HttpResponse:
    merge = get_object_or_404(SourceMerge.objects.select_related("kept", "merged", "user"), pk=pk)
    if request.method != "POST":
        return render(request, "wiki/edit/source_merge_undo.html", {"merge": merge, "moved": {k: len(v) for k, v in merge.moved.items()}})
    try:
        merged = source_merge_undo(merge=merge, user=request.user)
    except ValidationError as error:
        messages.error(request, error.messages[0])
        return redirect(merge.kept)
    messages.success(request, _("The merge is undone: “%(name)s” is back with what it had.") % {"name": merged.short_name})
    return redirect(merged)
