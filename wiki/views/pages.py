from collections.abc import Callable
from functools import wraps
from typing import Any, NoReturn

from django.db.models import Max
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.functional import SimpleLazyObject
from django.utils.http import content_disposition_header, urlencode
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from wiki.caching import versions
from wiki.caching.responses import cached_for_readers
from wiki.caching.values import cached_value
from wiki.graph.context import local_graph_for
from wiki.graph.forms import LocalGraphForm
from wiki.markdown import MarkdownTooComplex
from wiki.markdown.wikilinks import link_key, target_slug
from wiki.models import GlossaryTerm, OpenQuestion, Page, PageRedirect, Revision, Source, WikiLink
from wiki.paginator import Paginator
from wiki.references.markdown_export import page_markdown
from wiki.search.close import close_names
from wiki.services.pages import page_preview
from wiki.views.listing import IN_PAGE, PER_PAGE, Bounded


def deleted_page(request: HttpRequest, slug: str) -> HttpResponse | None:
    """What the address of a deleted page answers, with who deleted it and why (410); None when no page was there."""
    deleted = Page.all_objects.deleted().filter(slug=slug).first()
    return None if deleted is None else render(request, "wiki/deleted.html", {"object": deleted, "kind": "page"}, status=410)


def follows_moves(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """A GET of a view of a page at an address the page had before it was moved (``/wiki/old-notes/history/``)
    redirects to the same view where the page is now, its query kept; one of a deleted page answers that it was deleted,
    when and why (410), as the page's own address does. The queries are made only when the view found no page."""

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, **kwargs: Any) -> HttpResponseBase:
        try:
            response = view(request, slug=slug, **kwargs)
        except Http404:
            if (moved := moved_page(request, slug)) is not None:
                return moved
            if request.method in ("GET", "HEAD") and (gone := deleted_page(request, slug)) is not None:
                return gone
            raise
        return (moved_page(request, slug) if response.status_code == 404 else None) or response

    return wrapper


def moved_page(request: HttpRequest, slug: str, *, argument: str = "slug") -> HttpResponseBase | None:
    """For a GET of a view naming a page by the address it had before it was moved, the redirect to the same view
    naming it where it is now (``argument`` is the URL argument holding the address), its query kept; None when no page
    had that address."""
    if request.method not in ("GET", "HEAD") or request.resolver_match is None:
        return None
    now = PageRedirect.objects.page_slug_at(slug)
    if now is None:
        return None
    return redirect(same_view_url(request, **{argument: now}))


def same_view_url(request: HttpRequest, **arguments: str) -> str:
    """The address of the view ``request`` reached with ``arguments`` in place of its URL's own, its query kept."""
    match = request.resolver_match
    assert match is not None
    query = request.META.get("QUERY_STRING", "")
    return reverse(match.view_name, args=match.args, kwargs={**match.kwargs, **arguments}) + (f"?{query}" if query else "")


def page_not_found(slug: str) -> NoReturn:
    raise Http404(f"No page is called “{slug}”.")


@cached_for_readers("p")
def page_list(request: HttpRequest) -> HttpResponse:
    page_obj = Paginator(Page.objects.for_listing(), PER_PAGE).get_page(request.GET.get("p"))
    return render(request, "wiki/page_list.html", {"page_obj": page_obj})


@require_safe
def random_page(request: HttpRequest) -> HttpResponse:
    """A page picked at random, as a wiki's "random page" leads to (a new one each time: never cached); the list of
    pages while there is none."""
    slug = Page.objects.order_by("?").values_list("slug", flat=True).first()
    response = redirect("wiki:page-detail", slug=slug) if slug is not None else redirect("wiki:page-list")
    add_never_cache_headers(response)
    return response


@cached_for_readers("p")
def wanted_pages(request: HttpRequest) -> HttpResponse:
    """Pages that are linked to but not written yet, most wanted first."""
    page_obj = Paginator(WikiLink.objects.wanted(), PER_PAGE).get_page(request.GET.get("p"))
    return render(request, "wiki/wanted_pages.html", {"page_obj": page_obj})


@cached_for_readers("format", "redirectedfrom", *LocalGraphForm.base_fields)
def page_detail(request: HttpRequest, slug: str) -> HttpResponseBase:
    if request.GET.get("format") == "md":
        return page_export_markdown(request, slug)
    page = cached_value(request, "page", slug, build=lambda: Page.objects.with_meta().filter(slug=slug).first())
    # A title typed into the address bar (/wiki/Agentic RL/) finds the page its wiki link would, else the page of
    # that title.
    named = Page.objects.named(slug) if page is None else []
    if len(named) == 1:
        return redirect(_reached_from(named[0], slug))
    redirected_from = request.GET.get("redirectedfrom", "")
    if page is not None and redirected_from and not _leads_to(page, redirected_from):
        return redirect(page)
    canonical = target_slug(slug)
    # Read only when the template's cached fragment is missing.
    backlinks = Bounded(WikiLink.objects.backlinks_to(slug), IN_PAGE)
    if page is None and (gone := deleted_page(request, slug)) is not None:
        return gone
    if page is None:
        # A link to a term without a page of its own leads to the term's glossary entry.
        term = GlossaryTerm.objects.linked_as({slug, canonical, link_key(slug)}).first()
        if term is not None:
            return redirect(term)
        # "Create this page" starts from the title the links name it by, not from its address (read from the
        # backlinks the page lists anyway).
        title = SimpleLazyObject(lambda: next((link.target_title for link in backlinks), ""))
        # Pages and works named close to the address, for a mistyped one (read only when the fragment is missing).
        close = SimpleLazyObject(lambda: close_names(slug, version=versions.for_request(request).number))
        return render(request, "wiki/page_missing.html", {"slug": slug, "title": title, "backlinks": backlinks, "close": close},
                      status=404)
    return render(
        request,
        "wiki/page_detail.html",
        {"page": page, "slug": slug, "backlinks": backlinks, "redirected_from": redirected_from,
         "questions": Bounded(OpenQuestion.objects.unresolved().filter(page=page).queue(), IN_PAGE),
         # The page's sources section, built from its citations: all of them (a page holds at most 2,000 citations).
         "cited_works": SimpleLazyObject(lambda: list(Source.objects.cited_on(page.pk))),
         "local_graph": SimpleLazyObject(lambda: local_graph_for(request, f"page:{slug}"))},
    )


def _names_otherwise(page: Page, typed: str) -> bool:
    """True when ``typed`` is neither the page's address nor its title (in any case): a former address, or a title or
    address that leads to the page as a wiki link would."""
    return target_slug(typed) != page.slug and typed.strip().casefold() != page.title.casefold()


def _reached_from(page: Page, typed: str) -> str:
    """Where an address naming ``page`` by ``typed`` redirects: the page, saying what it was reached from when that is
    another name (a former address, another title), as a wiki says "(Redirected from …)"."""
    url = page.get_absolute_url()
    return f"{url}?{urlencode({'redirectedfrom': typed})}" if _names_otherwise(page, typed) else url


def _leads_to(page: Page, typed: str) -> bool:
    """True when ``typed`` is another name that leads to ``page`` (so that the page may say it was reached from it),
    not any text put in the address; one or two queries, made only when the address names one."""
    return _names_otherwise(page, typed) and [p.pk for p in Page.objects.named(typed)] == [page.pk]


@follows_moves
@cached_for_readers()
def page_revision(request: HttpRequest, slug: str, number: int) -> HttpResponseBase:
    """One saved state of a page as it read then (its permanent link): rendered against today's works and pages, with
    who saved it, when, and the way to the current revision and the changes since."""
    page = Page.objects.only("id", "slug", "title").filter(slug=slug).first()
    if page is None:
        return deleted_page(request, slug) or page_not_found(slug)
    revision = Revision.objects.select_related("author").filter(page=page, number=number).first()
    latest = page.revisions.aggregate(n=Max("number"))["n"]
    if revision is None:  # a permanent link mistyped: say which revisions there are, and where they are listed
        reason = gettext("The page has no revision %(revision)s: its revisions are numbered 1 to %(latest)s.") % {
            "revision": number, "latest": latest}
        history = reverse("wiki:page-history", kwargs={"slug": page.slug})
        return render(request, "404.html", {"reason": reason, "reason_url": history}, status=404)
    context: dict[str, object] = {"page": page, "revision": revision, "latest": latest}
    try:
        context["rendered"] = page_preview(body=revision.body).result
    except MarkdownTooComplex as error:  # a revision saved under looser limits than today's
        context["error"] = str(error)
    return render(request, "wiki/page_revision.html", context)


@cached_for_readers("p")
def page_backlinks(request: HttpRequest, slug: str) -> HttpResponseBase:
    """Every page that links to ``slug`` (which may be a wanted page, or the former address of a moved one: then the
    page's backlinks where it is now), paginated."""
    page = Page.objects.for_listing().filter(slug=slug).first()
    if page is None and (moved := moved_page(request, slug)) is not None:
        return moved
    page_obj = Paginator(WikiLink.objects.backlinks_to(slug), PER_PAGE).get_page(request.GET.get("p"))
    return render(request, "wiki/page_backlinks.html", {"slug": slug, "page": page, "page_obj": page_obj})


@follows_moves
@cached_for_readers()
def page_export_markdown(request: HttpRequest, slug: str) -> HttpResponse:
    """The page's Markdown with its front matter, then the works it cites as references (two queries); a deleted
    page answers 410, as its address does."""
    page = Page.objects.filter(slug=slug).only("id", "slug", "title", "summary", "body").first()
    if page is None:
        return deleted_page(request, slug) or page_not_found(slug)
    text = page_markdown(page=page, works=list(Source.objects.cited_on(page.pk).only(
        "id", "slug", "short_name", "title", "authors", "year", "venue", "url", "arxiv_id", "doi", "bibtex_key")))
    response = HttpResponse(text, content_type="text/markdown; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(False, f"{page.slug}.md") or ""
    return response
