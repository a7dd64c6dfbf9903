from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from wiki.caching import versions
from wiki.caching.responses import cached_for_readers
from wiki.search.forms import SearchForm
from wiki.search.query import search


@cached_for_readers(*SearchForm.base_fields)
def search_results(request: HttpRequest) -> HttpResponse:
    form = SearchForm(request.GET)
    results = None
    if form.is_valid() and form.cleaned_data["q"].strip():
        data = form.cleaned_data
        results = search(
            data["q"], kinds=[data["kind"]] if data["kind"] else None, mechanism=data["mechanism"], verdict=data["verdict"],
            limit=50 if data["kind"] else 10, version=versions.for_request(request).number,
        )
    return render(request, "wiki/search.html", {"form": form, "results": results})


def opensearch_description(request: HttpRequest) -> HttpResponse:
    """The OpenSearch description browsers read to search the wiki from their address bar."""
    return render(request, "wiki/opensearch.xml", {"base": request.build_absolute_uri("/").rstrip("/")},
                  content_type="application/opensearchdescription+xml; charset=utf-8")
