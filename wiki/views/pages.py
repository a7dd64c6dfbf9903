from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from wiki.graph.context import local_graph_for
from wiki.markdown.wikilinks import target_slug
from wiki.models import OpenQuestion, Page, WikiLink
from wiki.views.listing import PER_PAGE


def page_list(request: HttpRequest) -> HttpResponse:
    page_obj = Paginator(Page.objects.for_listing(), PER_PAGE).get_page(request.GET.get("p"))
    return render(request, "wiki/page_list.html", {"page_obj": page_obj})


def page_detail(request: HttpRequest, slug: str) -> HttpResponse:
    page = Page.objects.with_meta().filter(slug=slug).first()
    # A title typed into the address bar (/wiki/Agentic RL/) finds the page its wiki link would.
    canonical = target_slug(slug)
    if page is None and canonical and canonical != slug and Page.objects.filter(slug=canonical).exists():
        return redirect("wiki:page-detail", slug=canonical)
    backlinks = WikiLink.objects.backlinks_to(slug)
    if page is None:
        return render(request, "wiki/page_missing.html", {"slug": slug, "backlinks": backlinks}, status=404)
    return render(
        request,
        "wiki/page_detail.html",
        {"page": page, "backlinks": backlinks, "questions": OpenQuestion.objects.unresolved().filter(page=page).queue(),
         "local_graph": local_graph_for(request, f"page:{slug}")},
    )
