"""The page a form posted to a page's address was opened on: its edit form, its history's revert and rollback. The
form names the page by its id (``page_id``), so that what it does goes to that page wherever it is now, and never to
a page created meanwhile at the address the form was opened at."""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import HttpRequest

from wiki.models import Page


def named_page_id(request: HttpRequest) -> int | None:
    """The id of the page the posted form names, None when it names none (or nothing that is an id)."""
    value = (request.POST.get("page_id") or "") if request.method == "POST" else ""
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 9 else None


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
