"""Moving a page to another address and title: editors, after a form naming them and, if they like, why."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from wiki.forms.moves import PageMoveForm
from wiki.forms.opened import remember_opened
from wiki.models import Page
from wiki.services.changes import StaleEdit
from wiki.services.page_moves import PageMovedMeanwhile, page_move
from wiki.views.editing import editor_required, stale_form
from wiki.views.editing.opened_pages import opened_page_or_answer
from wiki.views.pages import follows_moves

MOVE_SAID = {
    "deleted": gettext_lazy("“%(title)s” was deleted after this form was opened: nothing was moved."),
    "no_page": gettext_lazy("The page this form was opened on no longer exists: nothing was moved."),
}


@follows_moves
@editor_required("wiki.change_page", forms=[PageMoveForm])
def page_move_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Asks where the page goes; moves the page the form was opened on (it names it). Moved since, it is asked again
    where it is now (moving it on would undo that move unseen); never a page created meanwhile at the address the form
    was opened at."""
    page = opened_page_or_answer(request, slug, said=MOVE_SAID, pages=Page.all_objects.only("id", "slug", "title",
                                                                                            "deleted_at"))
    if isinstance(page, HttpResponse):
        return page
    form = PageMoveForm(request.POST or None, initial={"title": page.title, "page_id": page.pk})
    remember_opened(form, page)
    if request.method == "POST" and form.is_valid():
        former, former_title = page.slug, page.title
        try:
            page = page_move(page=page, slug=form.cleaned_data["slug"], title=form.cleaned_data["title"],
                             reason=form.cleaned_data["reason"], user=request.user, take_over=form.cleaned_data["take_over"],
                             opened_title=form.opened_title(), opened_at=slug)
        except StaleEdit as stale:
            stale_form(form, stale, what="page_moved" if isinstance(stale, PageMovedMeanwhile) else "page")
            return render(request, "wiki/edit/page_move.html", {"page": stale.current, "form": form}, status=409)
        except ValidationError as error:
            form.add_error(None, error)
            if form.has_error("take_over", "former_address"):
                form.ask_to_take_over()
        else:
            if page.slug != former:
                messages.success(request, _("“%(title)s” is now at /wiki/%(slug)s/; /wiki/%(former)s/ leads here.")
                                 % {"title": page.title, "slug": page.slug, "former": former})
            else:
                messages.success(request, _("“%(former)s” is now titled “%(title)s”, at the same address.")
                                 % {"title": page.title, "former": former_title})
            return redirect(page)
    return render(request, "wiki/edit/page_move.html", {"page": page, "form": form}, status=400 if form.errors else 200)
