"""Deleting and restoring pages and works: staff only, after a confirmation with a reason."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from wiki.forms.deletion import DeletionForm
from wiki.models import Page, Source
from wiki.paginator import Paginator
from wiki.services.deletion import (
    ChangedMeanwhile,
    SourceRestoreClash,
    page_delete,
    page_restore,
    source_delete,
    source_restore,
)
from wiki.views.editing import EditorForm, anonymous_answer, mark_editor_form
from wiki.views.editing.opened_pages import opened_page_or_answer, page_changed_answer, say_moved
from wiki.views.editing.opened_works import opened_source_or_answer, say_source_moved, source_changed_answer
from wiki.views.listing import PER_PAGE
from wiki.views.pages import follows_moves

View = Callable[..., HttpResponse]

STAFF_ONLY = gettext_lazy("Your account may not do this: only staff can. Ask a member of staff to do it for you.")


def staff_required(view: View) -> View:
    """Anonymous users are sent to log in; logged-in users who are not staff get 403, saying that staff are needed.
    A form posted after the session ended keeps what was typed (the reason), as an editor form does."""
    form = EditorForm()

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return anonymous_answer(request, form)
        if not request.user.is_staff:
            raise PermissionDenied(STAFF_ONLY)
        return view(request, *args, **kwargs)

    mark_editor_form(wrapper, form)
    return wrapper


def _confirm(request: HttpRequest, obj: Page | Source, *, delete: Callable[..., Any], kind: str,
             changed: Callable[[Any], HttpResponse], done: Callable[[], None] = lambda: None) -> HttpResponse:
    """Asks to confirm, with a reason; deletes ``obj`` once confirmed, then says so (and ``done`` says more). Deleted
    by someone else between this read and the deletion (two staff confirming at once), nothing is done and ``changed``
    answers, given ``obj`` as it is now."""
    form = DeletionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            delete(user=request.user, reason=form.cleaned_data["reason"], **{kind: obj})
        except ChangedMeanwhile as meanwhile:
            return changed(meanwhile.obj)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("“%(name)s” is deleted; it can be restored from here.") % {"name": str(obj)})
            done()
            return redirect("wiki:deleted-list")
    return render(request, "wiki/edit/delete_confirm.html", {"object": obj, "kind": kind, "form": form},
                  status=400 if form.errors else 200)


PAGE_DELETION_SAID = {
    "deleted": gettext_lazy("“%(title)s” was deleted by someone else after this form was opened: nothing was changed."),
    "no_page": gettext_lazy("The page this form was opened on no longer exists: nothing was deleted."),
    "moved": gettext_lazy("“%(title)s” moved from /wiki/%(old)s/ to /wiki/%(new)s/ after this form was opened: it was "
                          "deleted at its new address."),
}
PAGE_RESTORE_SAID = {
    "restored": gettext_lazy("“%(title)s” was restored by someone else after this form was opened: nothing was "
                             "changed."),
    "no_page": gettext_lazy("The page this form was opened on no longer exists: nothing was restored."),
    "moved": gettext_lazy("“%(title)s” moved from /wiki/%(old)s/ to /wiki/%(new)s/ after this form was opened: it was "
                          "restored at its new address."),
}
_PAGE_FIELDS = ("id", "slug", "title", "deleted_at")
SOURCE_DELETION_SAID = {
    "deleted": gettext_lazy("“%(name)s” was deleted by someone else after this form was opened: nothing was changed."),
    "merged": gettext_lazy("“%(name)s” was merged into “%(kept)s” after this form was opened: nothing was deleted."),
    "no_work": gettext_lazy("The work this form was opened on no longer exists: nothing was deleted."),
    "moved": gettext_lazy("“%(name)s” moved from /sources/%(old)s/ to /sources/%(new)s/ after this form was opened: it "
                          "was deleted at its new address."),
}
SOURCE_RESTORE_SAID = {
    "restored": gettext_lazy("“%(name)s” was restored by someone else after this form was opened: nothing was "
                             "changed."),
    "merged": gettext_lazy("“%(name)s” was merged into “%(kept)s” after this form was opened: nothing was restored."),
    "no_work": gettext_lazy("The work this form was opened on no longer exists: nothing was restored."),
    "moved": gettext_lazy("“%(name)s” moved from /sources/%(old)s/ to /sources/%(new)s/ after this form was opened: it "
                          "was restored at its new address."),
}


@follows_moves
@staff_required
def page_delete_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Asks to confirm, with a reason; deletes the page the form was opened on (it names it), wherever it is now: what
    staff confirmed is that page's deletion. Never a page created meanwhile at the address it was opened at."""
    opened = opened_page_or_answer(request, slug, said=PAGE_DELETION_SAID, pages=Page.all_objects.only(*_PAGE_FIELDS))
    if isinstance(opened, HttpResponse):
        return opened
    page = opened
    return _confirm(request, page, delete=page_delete, kind="page",
                    changed=lambda now: page_changed_answer(request, now, said=PAGE_DELETION_SAID),
                    done=lambda: say_moved(request, page, slug, said=PAGE_DELETION_SAID))


@staff_required
def source_delete_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Asks to confirm, with a reason; deletes the work the form was shown for (it names it), wherever it is now, as
    a page's deletion form does; never a work that took the address meanwhile."""
    opened = opened_source_or_answer(request, slug, said=SOURCE_DELETION_SAID)
    if isinstance(opened, HttpResponse):
        return opened
    source = opened
    return _confirm(request, source, delete=source_delete, kind="source",
                    changed=lambda now: source_changed_answer(request, now, said=SOURCE_DELETION_SAID),
                    done=lambda: say_source_moved(request, source, slug, said=SOURCE_DELETION_SAID))


@require_POST
@staff_required
def page_restore_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Restores the page the button was shown for (its form names it), wherever it is now; restored since (even by a
    click at the same moment), or no longer in the wiki, nothing is done, and the answer says so."""
    page = opened_page_or_answer(request, slug, said=PAGE_RESTORE_SAID, pages=Page.all_objects.only(*_PAGE_FIELDS),
                                 deleted=True)
    if isinstance(page, HttpResponse):
        return page
    try:
        page = page_restore(page=page, user=request.user)
    except ChangedMeanwhile as meanwhile:
        assert isinstance(meanwhile.obj, Page)
        return page_changed_answer(request, meanwhile.obj, said=PAGE_RESTORE_SAID, restored=True)
    messages.success(request, _("“%(name)s” is restored.") % {"name": page.title})
    say_moved(request, page, slug, said=PAGE_RESTORE_SAID)
    return redirect(page)


@require_POST
@staff_required
def source_restore_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Restores the work the button was shown for (its form names it), wherever it is now; restored or merged since
    (even by a click at the same moment), or no longer in the wiki, nothing is done, and the answer says so. When a
    live work was added as it meanwhile, says which (409) and offers to restore it merged into that one
    (``merge_into``, the live work's slug)."""
    opened = opened_source_or_answer(request, slug, said=SOURCE_RESTORE_SAID, deleted=True)
    if isinstance(opened, HttpResponse):
        return opened
    source = opened
    merge_into = Source.objects.filter(slug=request.POST.get("merge_into", "")).first()
    try:
        kept = source_restore(source=source, user=request.user, merge_into=merge_into)
    except SourceRestoreClash as clash:
        return render(request, "wiki/edit/source_merge.html", {"source": source, "clash": clash}, status=409)
    except ChangedMeanwhile as meanwhile:
        assert isinstance(meanwhile.obj, Source)
        return source_changed_answer(request, meanwhile.obj, said=SOURCE_RESTORE_SAID)
    if kept.pk != source.pk:
        messages.success(request, _("“%(name)s” is restored and merged into “%(kept)s”; its address leads here. The merge "
                                    "can be undone below.") % {"name": source.short_name, "kept": kept.short_name})
    else:
        messages.success(request, _("“%(name)s” is restored.") % {"name": kept.short_name})
    say_source_moved(request, source, slug, said=SOURCE_RESTORE_SAID)
    return redirect(kept)


@require_safe
@staff_required
def deleted_list(request: HttpRequest) -> HttpResponse:
    """Deleted pages and works, the latest deleted first, with who deleted them, when and why."""
    fields = ("id", "slug", "deleted_at", "deleted_reason", "deleted_by__username")
    pages = Paginator(Page.all_objects.deleted().only("title", *fields), PER_PAGE).get_page(request.GET.get("p"))
    sources = Paginator(Source.all_objects.deleted().filter(merged_into__isnull=True).only("short_name", *fields), PER_PAGE).get_page(request.GET.get("w"))
    return render(request, "wiki/deleted_list.html", {"pages": pages, "sources": sources})
