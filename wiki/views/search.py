from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from wiki.caching import versions
from wiki.caching.responses import cached_for_readers
from wiki.search.forms import SearchForm
from wiki.search.paging import PAGE_PARAM, RESULTS_PER_KIND_PAGE, KindPage, page_number
from wiki.search.query import search


@cached_for_readers(*SearchForm.base_fields, PAGE_PARAM)
def search_results(request: HttpRequest) -> HttpResponse:
    """The best results of every kind; with ``kind``, that kind's results a page at a time."""
    form = SearchForm(request.GET)
    results, kind_page = None, None
    if form.is_valid() and form.cleaned_data["q"].strip():
        data = form.cleaned_data
        number, limit = (page_number(request.GET.get(PAGE_PARAM)), RESULTS_PER_KIND_PAGE) if data["kind"] else (1, 10)
        results = search(
            data["q"], kinds=[data["kind"]] if data["kind"] else None, mechanism=data["mechanism"], verdict=data["verdict"],
            limit=limit, offset=(number - 1) * limit, version=versions.for_request(request).number,
        )
        if data["kind"] and results.groups:
            kind_page = KindPage(number=number, per_page=limit, total=results.total, capped=results.total_capped)
    return render(request, "wiki/search.html", {"form": form, "results": results, "kind_page": kind_page})


def opensearch_description(request: HttpRequest) -> HttpResponse:
    """The OpenSearch description browsers read to search the wiki from their address bar."""
    return render(request, "wiki/opensearch.xml", {"base": request.build_absolute_uri("/").rstrip("/")},
                  content_type="application/opensearchdescription+xml; charset=utf-8")
