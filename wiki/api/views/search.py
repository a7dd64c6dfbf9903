from __future__ import annotations

from types import SimpleNamespace

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from wiki.api.filters import query_parameters
from wiki.api.serializers.search import (
    SearchNameSerializer,
    SearchNamesParamsSerializer,
    SearchParamsSerializer,
    SearchResultsSerializer,
)
from wiki.api.views.base import WikiAPIView
from wiki.caching import versions
from wiki.search.close import names_starting
from wiki.search.query import search


class SearchView(WikiAPIView):
    """Full-text search across pages, claims, sources and open questions, grouped by kind, best first."""

    permission_classes = [AllowAny]

    @extend_schema(summary=gettext_lazy("Search the wiki"), parameters=[SearchParamsSerializer], responses=SearchResultsSerializer)
    def get(self, request: Request) -> Response:
        data = query_parameters(request, SearchParamsSerializer, may_be_blank=frozenset({"q"}))
        results = search(
            data["q"],
            kinds=[data["kind"]] if data.get("kind") else None,
            mechanism=data.get("mechanism", ""),
            verdict=data.get("verdict", ""),
            limit=data["page_size"],
            offset=(data["page"] - 1) * data["page_size"],
            version=versions.for_request(request._request).number,
        )
        page = SimpleNamespace(query=results.query, total=results.total, total_capped=results.total_capped, groups=results.groups, page=data["page"],
                               page_size=data["page_size"], terms=results.terms, suggestions=results.suggestions,
                               close=results.close, exact=results.exact, understood=results.understood)
        return Response(SearchResultsSerializer(page).data)


class SearchNamesView(WikiAPIView):
    """Works, pages and glossary terms whose name starts with what was typed (then works and pages with a word
    starting with it): what a search box offers as the reader types. Read from the names and the glossary kept once
    per content version."""

    permission_classes = [AllowAny]

    @extend_schema(summary=gettext_lazy("Names starting with what was typed"), parameters=[SearchNamesParamsSerializer],
                   responses=SearchNameSerializer(many=True))
    def get(self, request: Request) -> Response:
        data = query_parameters(request, SearchNamesParamsSerializer, may_be_blank=frozenset({"q"}))
        names = names_starting(data["q"], version=versions.for_request(request._request).number, limit=data["limit"])
        return Response(SearchNameSerializer(names, many=True).data)
