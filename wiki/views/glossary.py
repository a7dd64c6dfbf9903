"""The glossary: every term with its names in both languages, and one term's entry."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import get_language

from wiki.caching.responses import cached_for_readers
from wiki.models import GlossaryTerm, WikiLink
from wiki.paginator import Paginator
from wiki.views.listing import IN_PAGE, PER_PAGE, Bounded


@cached_for_readers("p")
def glossary_list(request: HttpRequest) -> HttpResponse:
    # Chinese readers find a term where a Chinese list would have it: by its Chinese name, in pinyin order
    terms = GlossaryTerm.objects.listed(by_pinyin=get_language().startswith("zh"))
    page = Paginator(terms, PER_PAGE).get_page(request.GET.get("p"))
    return render(request, "wiki/glossary_list.html", {"page_obj": page})


@cached_for_readers()
def glossary_detail(request: HttpRequest, slug: str) -> HttpResponse:
    term = get_object_or_404(GlossaryTerm.objects.listed(), slug=slug)
    linking = Bounded(WikiLink.objects.linking_to_any(term.link_keys), IN_PAGE)
    return render(request, "wiki/glossary_detail.html", {"term": term, "linking": linking})
