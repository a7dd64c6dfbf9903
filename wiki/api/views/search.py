from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from wiki.api.serializers.search import SearchParamsSerializer, SearchResultsSerializer
from wiki.search.query import search


class SearchView(APIView):
    """Full-text search across pages, claims, sources and open questions, grouped by kind, best first."""

    permission_classes = [AllowAny]

    @extend_schema(summary="Search the wiki", parameters=[SearchParamsSerializer], responses=SearchResultsSerializer)
    def get(self, request: Request) -> Response:
        params = SearchParamsSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        data = params.validated_data
        results = search(
            data["q"],
            kinds=[data["kind"]] if data.get("kind") else None,
            mechanism=data.get("mechanism", ""),
            verdict=data.get("verdict", ""),
            limit=data["limit"],
            offset=data["offset"],
        )
        return Response(SearchResultsSerializer(results).data)
