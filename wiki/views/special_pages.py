"""Lists of pages that need an editor's attention, beside the wanted pages: pages no other page links to, pages that
link to no other page, and pages whose claims cite no work. Each is paginated and costs two queries (a count and a
page of rows), whatever the number of pages; deleted pages are never listed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from wiki.caching.responses import cached_for_readers
from wiki.models import Page
from wiki.models.pages import PageQuerySet
from wiki.paginator import Paginator
from wiki.views.listing import PER_PAGE


@dataclass(frozen=True)
class PageReport:
    key: str  # the list's URL name
    title: Promise
    description: Promise
    empty: Promise
    pages: Callable[[], PageQuerySet]


ORPHANED = PageReport(
    key="orphaned-pages",
    title=_("Orphaned pages"),
    description=_(
        "Pages that no other page links to, by their address or by one they had before a move. A reader "
        "finds them only by search or the list of all pages: link to them from a page on their subject."
    ),
    empty=_("No orphaned pages: every page is linked to from another."),
    pages=lambda: Page.objects.orphaned(),
)
DEAD_ENDS = PageReport(
    key="dead-end-pages",
    title=_("Dead-end pages"),
    description=_(
        "Pages that link to no other page (links to pages not written yet, to deleted pages or to glossary "
        "entries do not count): a reader who reaches one has nowhere to go on."
    ),
    empty=_("No dead-end pages: every page links to another."),
    pages=lambda: Page.objects.dead_ends(),
)
WITHOUT_CITATIONS = PageReport(
    key="pages-without-citations",
    title=_("Pages without citations"),
    description=_(
        "Pages none of whose claims cites a work (（来源：…） or （综合：…）): what they say cannot be checked "
        "against a source yet."
    ),
    empty=_("No page lacks citations: every page has a claim citing a work."),
    pages=lambda: Page.objects.without_citations(),
)


@cached_for_readers("p")
def page_report(request: HttpRequest, report: PageReport) -> HttpResponse:
    """One list of pages needing an editor (``report``, given by the address: orphaned, dead-end, uncited)."""
    page_obj = Paginator(report.pages(), PER_PAGE).get_page(request.GET.get("p"))
    return render(request, "wiki/special_pages.html", {"report": report, "page_obj": page_obj})
