"""Recent changes across pages, sources, claims, classifications, contrasts and questions; all of them, or of one
kind, or one account's (its contributions), over the last few days, with or without the reader's own."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from wiki.filters.changes import ChangeFilter
from wiki.models import ChangeEvent
from wiki.paginator import Paginator

CHANGES_PAGE_SIZE = 50


@require_safe
def changes(request: HttpRequest) -> HttpResponse:
    if _asks_for_json(request):
        return _json_elsewhere(request)
    filters = ChangeFilter(request.GET, queryset=ChangeEvent.objects.recent(), request=request)
    valid = filters.is_valid()
    context = {"filter": filters, "account": filters.form.cleaned_data.get("user"), "feed_query": filters.feed_query() if valid else ""}
    if not valid:
        response = render(request, "wiki/changes.html", {**context, "changes": None}, status=400)
    else:
        listing = Paginator(filters.changes.with_history(), CHANGES_PAGE_SIZE).get_page(request.GET.get("p"))
        response = render(request, "wiki/changes.html", {**context, "changes": listing})
    patch_vary_headers(response, ["Accept"])
    return response


def _asks_for_json(request: HttpRequest) -> bool:
    """``?format=json``, or an Accept header naming JSON and not HTML (a browser's always names HTML, or ``*/*``)."""
    return request.GET.get("format") == "json" or (request.accepts("application/json") and not request.accepts("text/html"))


def _json_elsewhere(request: HttpRequest) -> HttpResponse:
    """406 in the API's error shape (``available``: HTML only), naming the API's list with the same filters (its pages
    are ``page``, the HTML list's ``p``), also as a ``Link``: the page is HTML only, and a script reading it as JSON is
    better told where to look than given the page."""
    query = request.GET.copy()
    query.pop("format", None)
    if "p" in query:
        query["page"] = query.pop("p")[-1]
    address = request.build_absolute_uri(reverse("api:changes") + (f"?{query.urlencode()}" if query else ""))
    response = JsonResponse({
        "detail": _("This page is HTML only; the recent changes as JSON are at %(address)s (the same filters).") % {"address": address},
        "code": "not_acceptable", "errors": {}, "codes": {}, "available": ["text/html"], "url": address,
    }, status=406, json_dumps_params={"ensure_ascii": False})
    response["Link"] = f'<{address}>; rel="alternate"; type="application/json"'
    patch_vary_headers(response, ["Accept"])
    return response
