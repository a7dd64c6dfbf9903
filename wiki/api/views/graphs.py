from __future__ import annotations

from typing import Any

import networkx as nx
from django.http import HttpResponseBase, HttpResponsePermanentRedirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from wiki.api.filters import query_parameters
from wiki.api.schema import ErrorSerializer
from wiki.api.serializers.graphs import (
    ContrastGraphParamsSerializer,
    GraphSerializer,
    LocalGraphParamsSerializer,
    MapGraphParamsSerializer,
    MapGraphSerializer,
)
from wiki.caching.values import cached_value
from wiki.graph import SubjectRef, UnknownNode, contrast_graph, local_graph, map_graph
from wiki.graph.build import now_named
from wiki.graph.nodes import node_id, split_node_id
from wiki.models import Component, PageRedirect, Source


def _as_json(graph: nx.MultiDiGraph[str], *, center: str | None, subjects: list[str]) -> dict[str, Any]:
    return {
        "center": center,
        "subjects": subjects,
        "nodes": [
            {"id": n, "kind": d["kind"], "label": d["label"], "url": d["url"], "mechanism": d.get("mechanism", ""),
             "verdict": d.get("verdict", "")}
            for n, d in graph.nodes(data=True)
        ],
        "edges": [{"source": u, "target": v, "type": d["type"], "label": d.get("label", "")} for u, v, d in graph.edges(data=True)],
    }


class ContrastGraphView(APIView):
    """Works (or components) side by side: their classifications, the contrasts and claims linking them, shared neighbours."""

    permission_classes = [AllowAny]

    @extend_schema(summary=gettext_lazy("Contrast graph of two or more works"), parameters=[ContrastGraphParamsSerializer],
                   responses={200: GraphSerializer,
                              301: OpenApiResponse(description="A work named was merged into another: `Location` names that "
                                                               "one instead."),
                              404: OpenApiResponse(ErrorSerializer, description="A work or component does not exist.")})
    def get(self, request: Request) -> HttpResponseBase:
        params = query_parameters(request, ContrastGraphParamsSerializer)
        refs = [SubjectRef.parse(work) for work in params["works"]]
        known = set(Source.objects.filter(slug__in={r.source for r in refs}).values_list("slug", flat=True))
        components = {
            (s, c) for s, c in Component.objects.filter(source__slug__in=known).values_list("source__slug", "slug")
        }
        missing = [str(r) for r in refs if r.source not in known or (r.component and (r.source, r.component) not in components)]
        if missing and (now := now_named(refs)) is not None:
            query = request.query_params.copy()
            query["works"] = ",".join(map(str, now))
            return HttpResponsePermanentRedirect(request.build_absolute_uri(f"{request.path}?{query.urlencode()}"))
        if missing:
            raise NotFound(_("No such work: %(works)s.") % {"works": ", ".join(missing)})
        graph = contrast_graph(refs)
        return Response(_as_json(graph, center=None, subjects=[r.node for r in refs]))


def _moved_page(request: Request, node: str) -> HttpResponsePermanentRedirect | None:
    """The same request naming the page where it is now, when ``node`` names a page by an address it was moved from."""
    kind, key = split_node_id(node)
    now = PageRedirect.objects.page_slug_at(key) if kind == "page" else None
    if now is None:
        return None
    query = request.query_params.copy()
    query["node"] = node_id("page", now)
    return HttpResponsePermanentRedirect(request.build_absolute_uri(f"{request.path}?{query.urlencode()}"))


def _merged_work(request: Request, node: str) -> HttpResponsePermanentRedirect | None:
    """The same request naming the work that ``node`` was merged into, when it names a work merged into another."""
    kind, key = split_node_id(node)
    now = now_named([SubjectRef(key)]) if kind == "source" else None
    if not now:
        return None
    query = request.query_params.copy()
    query["node"] = node_id("source", now[0].source)
    return HttpResponsePermanentRedirect(request.build_absolute_uri(f"{request.path}?{query.urlencode()}"))


class LocalGraphView(APIView):
    """The neighbourhood of one node (page, work, component, claim, mechanism or question)."""

    permission_classes = [AllowAny]

    @extend_schema(summary=gettext_lazy("Local graph around a node"), parameters=[LocalGraphParamsSerializer],
                   responses={200: GraphSerializer,
                              301: OpenApiResponse(description="The node names a page by an address it was moved from, or "
                                                               "a work merged into another: `Location` names where it is "
                                                               "now."),
                              404: OpenApiResponse(ErrorSerializer, description="The centre node does not exist.")})
    def get(self, request: Request) -> HttpResponseBase:
        data = query_parameters(request, LocalGraphParamsSerializer)
        try:
            graph = local_graph(data["node"], depth=data["depth"], edge_types=data.get("edge_types") or None)
        except UnknownNode:
            if (moved := _moved_page(request, data["node"])) is not None:
                return moved
            if (merged := _merged_work(request, data["node"])) is not None:
                return merged
            raise NotFound(_("No such node: %(node)s.") % {"node": data["node"]}) from None
        return Response(_as_json(graph, center=data["node"], subjects=[]))


class MapGraphView(APIView):
    """The map of works, as the browser draws it: each work (or component) joined to its mechanism, the contrasts
    between them, and how many of each it leaves out."""

    permission_classes = [AllowAny]

    @extend_schema(summary=gettext_lazy("Map of works"), parameters=[MapGraphParamsSerializer],
                   responses={200: MapGraphSerializer})
    def get(self, request: Request) -> Response:
        params = query_parameters(request, MapGraphParamsSerializer)
        mechanism, verdict = params.get("mechanism") or None, params.get("verdict") or None
        graph, summary = cached_value(request, "api-map", mechanism, verdict,
                                      build=lambda: map_graph(mechanism=mechanism, verdict=verdict))
        data = _as_json(graph, center=None, subjects=[])
        return Response({"nodes": data["nodes"], "edges": data["edges"], "summary": {
            "total": summary.total, "drawn": summary.drawn, "contrasts": summary.contrasts,
            "contrasts_drawn": summary.contrasts_drawn, "unclassified": summary.unclassified}})
