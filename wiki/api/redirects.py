"""Permanent redirects of the API: a read with 301, anything else with 308, which clients repeat at the new address
with the same method and body (a 301 would let a POST turn into a GET)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.urls import reverse
from rest_framework import status

# Methods a redirect may turn into a GET without losing anything.
READS = frozenset({"GET", "HEAD"})


def moved_permanently(request: HttpRequest, url: str) -> HttpResponsePermanentRedirect:
    """``request`` sent on to ``url`` (a path, or a path and its query), for good."""
    moved = HttpResponsePermanentRedirect(request.build_absolute_uri(url))
    if request.method not in READS:
        moved.status_code = status.HTTP_308_PERMANENT_REDIRECT
    return moved


def same_request_at(request: HttpRequest, **kwargs: object) -> HttpResponsePermanentRedirect:
    """``request`` sent on to the same endpoint with ``kwargs`` in its address (a moved page's slug now, the id of the
    claim a replaced one lives on as), its query kept."""
    match = request.resolver_match
    assert match is not None  # a request that reached a view was resolved
    url = reverse(f"{match.namespace}:{match.url_name}", kwargs={**match.kwargs, **kwargs})
    query = request.META.get("QUERY_STRING", "")
    return moved_permanently(request, f"{url}?{query}" if query else url)
