"""A page's tools beside its text, as a wiki's sidebar has them: its information, and how to cite it.

Neither is kept in the response cache: the information counts the page's watchers, which moves no content version,
and a citation carries the day it is read.
"""

from __future__ import annotations

from django.db.models import Max
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import uri_to_iri
from django.utils.http import content_disposition_header
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from wiki.models import Page, Revision
from wiki.references.citation_files import citation_files
from wiki.references.formats import MEDIA_TYPES, ReferenceFormat
from wiki.references.page_citation import PageCitation
from wiki.reports.page_info import page_info
from wiki.views.pages import deleted_page, follows_moves, page_not_found

# What ``?format=`` downloads instead of the page: the format, and the file's extension.
CITATION_DOWNLOADS = {"bib": (ReferenceFormat.BIBTEX, "bib"), "csl": (ReferenceFormat.CSL_JSON, "json")}


@require_safe
@follows_moves
def page_information(request: HttpRequest, slug: str) -> HttpResponse:
    """The page's names, history in figures, watchers, links, claims, works cited and questions (three queries)."""
    info = page_info(slug)
    if info is None:
        return deleted_page(request, slug) or page_not_found(slug)
    # As a reader reads it: a Chinese address in its characters, not percent-encoded.
    address = uri_to_iri(request.build_absolute_uri(info.page.get_absolute_url()))
    return render(request, "wiki/page_info.html", {"info": info, "page": info.page, "address": address})


class _NotCited(Exception):
    """The revision asked for cannot be cited: why, and the status that says so."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


@require_safe
@follows_moves
def page_cite(request: HttpRequest, slug: str) -> HttpResponseBase:
    """How to cite the page's current revision, or the one ``?revision=`` names: its permanent link, the day it is
    read, and the citation in several styles; ``?format=bib`` or ``csl`` downloads it (two queries)."""
    export = request.GET.get("format")
    if export is not None and export not in CITATION_DOWNLOADS:
        message = _("No format “%(format)s”: ask for bib or csl, or leave format out for the page.")
        return _refused(message % {"format": export})
    page = Page.objects.only("id", "slug", "title").annotate(latest=Max("revisions__number")).filter(slug=slug).first()
    if page is None:
        return deleted_page(request, slug) or page_not_found(slug)
    latest: int = page.latest or 0  # type: ignore[attr-defined]  # annotated above
    try:
        revision = _revision_cited(page, request.GET.get("revision"), latest=latest)
    except _NotCited as refusal:
        if export is not None:
            return _refused(str(refusal), status=refusal.status)
        context = {"page": page, "latest": latest, "error": str(refusal)}
        return render(request, "wiki/page_cite.html", context, status=refusal.status)
    permanent = reverse("wiki:page-revision", kwargs={"slug": page.slug, "number": revision.number})
    citation = PageCitation(
        page_id=page.pk,
        slug=page.slug,
        title=revision.title,
        revision=revision.number,
        revised=timezone.localdate(revision.created_at),
        retrieved=timezone.localdate(),
        url=request.build_absolute_uri(permanent),
        language="zh-Hans" if revision.holds_chinese else "en",  # type: ignore[attr-defined]
    )
    if export is not None:
        return _download(citation, export)
    files = citation_files({"bib": citation.bibtex, "csl": citation.csl_json},
                           url=reverse("wiki:page-cite", kwargs={"slug": page.slug}), query={"revision": revision.number})
    context = {"page": page, "latest": latest, "revision": revision, "citation": citation, "files": files,
               "author": citation.author_for(get_language())}
    return render(request, "wiki/page_cite.html", context)


def _revision_cited(page: Page, asked: str | None, *, latest: int) -> Revision:
    """The revision ``?revision=`` names (the latest when it names none), with its author and the language of its
    text; :class:`_NotCited` when it names none the page has."""
    number = latest if asked is None else _number(asked)
    if number is None:
        message = _("“%(revision)s” is no revision number: give a whole number from 1 to %(latest)s.")
        raise _NotCited(message % {"revision": asked, "latest": latest}, 400)
    revision = None if number > latest else Revision.objects.for_citation().filter(page=page, number=number).first()
    if revision is None:
        message = _("The page has no revision %(revision)s: its revisions are numbered 1 to %(latest)s.")
        raise _NotCited(message % {"revision": number, "latest": latest}, 404)
    return revision


def _number(raw: str) -> int | None:
    return int(raw) if raw.isascii() and raw.isdigit() and int(raw) >= 1 else None


def _download(citation: PageCitation, export: str) -> HttpResponse:
    fmt, extension = CITATION_DOWNLOADS[export]
    text = citation.bibtex if fmt == ReferenceFormat.BIBTEX else citation.csl_json
    response = HttpResponse(text, content_type=f"{MEDIA_TYPES[fmt]}; charset=utf-8")
    filename = f"{citation.slug}-r{citation.revision}.{extension}"
    response["Content-Disposition"] = content_disposition_header(True, filename) or ""
    return response


def _refused(message: str, *, status: int = 400) -> HttpResponse:
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
