"""The page a form posted to a page's address was opened on: its edit form, its history's revert and rollback, its
move and deletion forms, the restore button of a deleted page. The form names the page by its id (``page_id``), so
that what it does goes to that page wherever it is now, and never to a page created meanwhile at the address the form
was opened at."""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib import messages
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django_stubs_ext import StrOrPromise

from wiki.models import Page


def named_id(request: HttpRequest, name: str) -> int | None:
    """The id the posted form sends as ``name``, None when it sends none (or nothing that is an id)."""
    value = (request.POST.get(name) or "") if request.method == "POST" else ""
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 9 else None


def named_page_id(request: HttpRequest) -> int | None:
    """The id of the page the posted form names, None when it names none (or nothing that is an id)."""
    return named_id(request, "page_id")


def opened_page(request: HttpRequest, slug: str, pages: QuerySet[Page]) -> Page | None:
    """The page a form posted to ``slug`` was opened on (of ``pages``), wherever it is now; for a GET, the page at
    ``slug``.

    The form names it (``page_id``): a page moved since is found at its new address, and a page created meanwhile at
    its former one is not taken for it. A form that names none (opened before forms did) is the page's at ``slug``, or,
    with a revision it started from, the one moved from there."""
    opened_on = named_page_id(request)
    if opened_on is not None:
        return pages.filter(pk=opened_on).first()
    here = pages.filter(slug=slug).first()
    if here is None and request.method == "POST" and request.POST.get("base_revision"):
        return pages.filter(redirects__slug=slug).first()
    return here


def opened_page_or_answer(request: HttpRequest, slug: str, *, said: Mapping[str, StrOrPromise],
                          pages: QuerySet[Page] | None = None, deleted: bool = False) -> Page | HttpResponse:
    """The page a form posted to ``slug`` was opened on (:func:`opened_page`, of ``pages``, all pages by default), for
    a GET the page at ``slug``; live, or for an action on a deleted page (``deleted``, a restore) deleted.

    When it is no longer so (deleted since, or restored since), or is no longer in the wiki, the answer saying so
    (``said["deleted"]`` or ``said["restored"]``, with its ``title``; ``said["no_page"]``), with nothing done and no
    other page touched: the page's address, or the home page. A GET finding no such page at ``slug`` is a 404."""
    page = opened_page(request, slug, Page.all_objects.all() if pages is None else pages)
    if page is None and named_page_id(request) is not None:
        messages.error(request, said["no_page"])
        return redirect("wiki:home")
    if page is None or (page.is_deleted != deleted and request.method != "POST"):
        raise Http404
    if page.is_deleted != deleted:
        return page_changed_answer(request, page, said=said, restored=not page.is_deleted)
    return page


def page_changed_answer(request: HttpRequest, page: Page, *, said: Mapping[str, StrOrPromise],
                        restored: bool = False) -> HttpResponse:
    """Nothing was done to ``page``, deleted meanwhile (``said["deleted"]``), or restored meanwhile (``restored``,
    ``said["restored"]``): its address says so, a deleted page's who deleted it, when and why."""
    messages.error(request, said["restored" if restored else "deleted"] % {"title": page.title})
    return redirect(page)


def say_moved(request: HttpRequest, page: Page, slug: str, *, said: Mapping[str, StrOrPromise]) -> None:
    """When ``page`` was moved from ``slug``, where its form was opened, the message saying it was acted on at its
    new address (``said["moved"]``)."""
    if page.slug != slug:
        messages.info(request, said["moved"] % {"title": page.title, "old": slug, "new": page.slug})
