"""Undoing one revision's change: the edit form, prefilled with the page as it reads without that change, the diff from
the current text beside it, saved as any edit is."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from wiki.forms.pages import PageForm
from wiki.models import Page
from wiki.services.page_reverts import UndoConflict, UndoImpossible, page_undo_prepare
from wiki.text.diff import side_by_side


def _revision_number(value: str) -> int | None:
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 9 else None


def undo_form(request: HttpRequest, page: Page) -> HttpResponse:
    """``?undo=N``: the edit form holding the page with revision N's change taken out and an edit summary saying so,
    based on the current revision (a save made meanwhile is merged, or is an edit conflict, as for any edit). When
    later edits changed the same lines, nothing is prefilled: a page says so and offers the ways left."""
    raw = request.GET["undo"]
    try:
        # A value that is no number names no revision, as revision 0 does not.
        undo = page_undo_prepare(page=page, number=_revision_number(raw) or 0)
    except UndoImpossible:
        error = _(
            "Revision “%(value)s” of this page has no change to undo: choose a revision after the first in its history."
        ) % {"value": raw[:40]}
        return render(request, "wiki/edit/page_undo_failed.html", {"page": page, "error": error}, status=404)
    except UndoConflict as conflict:
        return render(
            request,
            "wiki/edit/page_undo_failed.html",
            {"page": page, "revision": conflict.revision, "current": conflict.current},
            status=409,
        )
    if undo.changes_nothing:
        messages.info(
            request,
            _("Revision %(number)s's change is no longer in the page: there is nothing to undo.")
            % {"number": undo.revision.number},
        )
        return redirect("wiki:page-history", slug=page.slug)
    form = PageForm(initial={**undo.values, "comment": undo.comment().text(), "base_revision": undo.current.number,
                             "page_id": page.pk})
    return render(
        request,
        "wiki/edit/page_form.html",
        {
            "form": form,
            "page": page,
            "preview": None,
            "undo": undo,
            "undo_diff": side_by_side(undo.current.body, undo.values["body"]),
        },
    )
