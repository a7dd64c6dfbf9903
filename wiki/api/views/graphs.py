from __future__ import annotations

from collections.abc import Collection
from typing import Any

import networkx as nx
from django.http import HttpResponseBase, HttpResponsePermanentRedirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from wiki.api.filters import query_parameters
from wiki.api.renderers import GRAPH_RENDERERS, GraphMLRenderer
from wiki.api.schema import ErrorSerializer
from wiki.api.serializers.graphs import (
    ContrastGraphParamsSerializer,
    GraphSerializer,
    LocalGraphParamsSerializer,
    MapGraphParamsSerializer,
    MapGraphSerializer,
    MapSummarySerializer,
)
from wiki.api.views.base import WikiAPIView
from wiki.caching.values import cached_value
from wiki.graph import SubjectRef, UnknownNode, contrast_graph, map_graph
from wiki.graph.build import MAP_EXPORT_LIMIT, contrast_priority, now_named
from wiki.graph.layout import drawn_nodes
from wiki.graph.local import neighbourhood, neighbourhood_priority
from wiki.graph.nodes import node_id, split_node_id
from wiki.models import ClaimRevision, Component, PageRedirect, Source
from wiki.text.lists import joined


def _as_json(graph: nx.MultiDiGraph[str], *, center: str | None, subjects: list[str],
             drawn: Collection[str] | None = None) -> dict[str, Any]:
    """``drawn``: the nodes the browser's picture of this graph holds, each node saying whether it is one of them
    (null when not given: the map, whose summary says how much it holds)."""
    shown = {} if drawn is None else {n: n in drawn for n in graph}
    return {
        "center": center,
        "subjects": subjects,
        "nodes": [
            {"id": n, "kind": d["kind"], "label": d["label"], "url": d["url"], "mechanism": d.get("mechanism", ""),
             "verdict": d.get("verdict", ""), "drawn": shown.get(n)}
            for n, d in graph.nodes(data=True)
        ],
        "edges": [{"source": u, "target": v, "type": d["type"], "label": d.get("label", "")} for u, v, d in graph.edges(data=True)],
    }


_GRAPHML = OpenApiResponse(OpenApiTypes.STR, description=gettext_lazy("The same graph as GraphML (`?format=graphml` or `Accept: "
                           "application/graphml+xml`), for Gephi, Cytoscape or yEd: each node's and edge's fields are its "
                           "attributes, addresses absolute."))

_FORMAT = OpenApiParameter("format", str, enum=["json", "graphml"], required=False,
                           description=gettext_lazy("The format, instead of an Accept header. A generated client reads each answer "
                                                    "of an operation as the JSON it declares: it reads GraphML at the graph's own "
                                                    "GraphML address (`graphml/` under this one) instead."))
# The graph's GraphML file as a generated client reads it: bytes, not JSON.
_GRAPHML_FILE = OpenApiResponse(OpenApiTypes.BINARY, description=_GRAPHML.description)


def _graph_responses(serializer: type, others: dict[int, OpenApiResponse] | None = None) -> dict[Any, Any]:
    """The graph as JSON or GraphML; ``others`` (redirects, errors) are JSON whichever was asked for."""
    return {(200, "application/json"): OpenApiResponse(serializer, description=gettext_lazy("The graph's nodes and edges.")),
            (200, GraphMLRenderer.media_type): _GRAPHML,
            **{(code, "application/json"): response for code, response in (others or {}).items()}}


def _graphml_responses(others: dict[int, OpenApiResponse] | None = None) -> dict[Any, Any]:
    """The graph as GraphML alone; ``others`` (redirects, errors) are JSON."""
    return {(200, GraphMLRenderer.media_type): _GRAPHML_FILE,
            **{(code, "application/json"): response for code, response in (others or {}).items()}}



_CONTRAST_ERRORS = {301: OpenApiResponse(description=gettext_lazy("A work named was merged into another: `Location` names that one "
                                                                  "instead.")),
                    404: OpenApiResponse(ErrorSerializer, description=gettext_lazy("A work or component does not exist."))}


class ContrastGraphView(WikiAPIView):
    """Works (or components) side by side: their classifications, the contrasts and claims linking them, shared neighbours."""

    permission_classes = [AllowAny]
    renderer_classes = GRAPH_RENDERERS

    @extend_schema(summary=gettext_lazy("Contrast graph of two or more works"), parameters=[ContrastGraphParamsSerializer, _FORMAT],
                   responses=_graph_responses(GraphSerializer, _CONTRAST_ERRORS))
    def get(self, request: Request) -> HttpResponseBase:
        params = query_parameters(request, ContrastGraphParamsSerializer)
        refs = [SubjectRef.parse(work) for work in params["works"]]
        known = set(Source.objects.filter(slug__in={r.source for r in refs}).values_list("slug", flat=True))
        components = {
            (s, c) for s, c in Component.objects.filter(source__slug__in=known).values_list("source__slug", "slug")
        }
        missing = [str(r) for r in refs if r.source not in known or (r.component and (r.source, r.component) not in components)]
        if missing and (now := now_named(refs)) is not None:
            return _same_request(request, works=",".join(map(str, now)))
        if missing:
            raise NotFound(_("No such work: %(works)s.") % {"works": joined(missing)})
        graph = contrast_graph(refs)
        drawn = set(drawn_nodes(graph, contrast_priority(graph, refs)))
        return Response(_as_json(graph, center=None, subjects=[r.node for r in refs], drawn=drawn))


def _same_request(request: Request, **params: str) -> HttpResponsePermanentRedirect:
    """This request again with ``params`` in place of its own query parameters of those names."""
    query = request.query_params.copy()
    for name, value in params.items():
        query[name] = value
    return HttpResponsePermanentRedirect(request.build_absolute_uri(f"{request.path}?{query.urlencode()}"))


def _node_now(request: Request, node: str) -> HttpResponsePermanentRedirect | None:
    """The same request naming ``node`` as it is now: a page by the address it was moved to, a work by the one it was
    merged into, a claim by the one it gave its sentence to (as the claim's own address leads there), a component
    written work:component as work/component; None when it is none of these."""
    kind, key = split_node_id(node)
    if kind == "page" and (slug := PageRedirect.objects.page_slug_at(key)) is not None:
        return _same_request(request, node=node_id("page", slug))
    if kind == "claim" and key.isdigit() and (replaced := ClaimRevision.objects.replacing(int(key)).first()) is not None:
        return _same_request(request, node=node_id("claim", replaced.claim_id))
    if kind == "source" and (merged := now_named([SubjectRef(key)])):
        return _same_request(request, node=node_id("source", merged[0].source))
    if kind == "component" and "/" not in key and (ref := SubjectRef.parse(key.replace("：", ":"))).component:
        # written work:component, as the contrast graph takes it
        return _same_request(request, node=node_id("component", f"{ref.source}/{ref.component}"))
    return None


_LOCAL_ERRORS = {301: OpenApiResponse(description=gettext_lazy("The node names a page by an address it was moved from, a work merged "
                                                               "into another, a claim that gave its sentence to a re-attached one, or "
                                                               "a component as `component:work:component`: `Location` names it as it "
                                                               "is now.")),
                 404: OpenApiResponse(ErrorSerializer, description=gettext_lazy("The centre node does not exist."))}


class LocalGraphView(WikiAPIView):
    """The neighbourhood of one node (page, work, component, claim, mechanism or question), the one its page draws:
    a page's is the works its claims cite or are about, their contrasts, then linked pages and its questions."""

    permission_classes = [AllowAny]
    renderer_classes = GRAPH_RENDERERS

    @extend_schema(summary=gettext_lazy("Local graph around a node"), parameters=[LocalGraphParamsSerializer, _FORMAT],
                   responses=_graph_responses(GraphSerializer, _LOCAL_ERRORS))
    def get(self, request: Request) -> HttpResponseBase:
        data = query_parameters(request, LocalGraphParamsSerializer)
        try:
            graph = neighbourhood(data["node"], depth=data["depth"], edge_types=data.get("edge_types") or None)
        except UnknownNode:
            if (moved := _node_now(request, data["node"])) is not None:
                return moved
            raise NotFound(_("No such node: %(node)s.") % {"node": data["node"]}) from None
        drawn = set(drawn_nodes(graph, neighbourhood_priority(graph, data["node"])))
        return Response(_as_json(graph, center=data["node"], subjects=[], drawn=drawn))


class MapGraphView(WikiAPIView):
    """The map of works as a file, for what is too large to draw: each work (or component) the filter asks for
    joined to its mechanism, and the contrasts between them, up to ``limit`` of each (the browser draws the first
    few dozen); ``summary`` (in GraphML, the graph's data) says how many there are, how many it holds and where it
    was cut. Six queries whatever the limit."""

    permission_classes = [AllowAny]
    renderer_classes = GRAPH_RENDERERS

    @extend_schema(summary=gettext_lazy("Map of works"), parameters=[MapGraphParamsSerializer, _FORMAT],
                   responses=_graph_responses(MapGraphSerializer))
    def get(self, request: Request) -> Response:
        params = query_parameters(request, MapGraphParamsSerializer)
        mechanism, verdict, limit = params.get("mechanism") or None, params.get("verdict") or None, params["limit"]

        def build() -> dict[str, Any]:
            graph, summary = map_graph(mechanism=mechanism, verdict=verdict, limit=limit, contrast_limit=limit)
            data = _as_json(graph, center=None, subjects=[])
            return {"nodes": data["nodes"], "edges": data["edges"], "summary": MapSummarySerializer(summary).data}

        # the map as most ask for it is kept; another limit is built for its request alone, not to fill the cache
        if limit == MAP_EXPORT_LIMIT:
            return Response(cached_value(request, "api-map", mechanism, verdict, limit, build=build))
        return Response(build())


# Each graph has an address of its own that answers it as GraphML alone (an error as JSON): a generated client types an
# operation's answer by the media types it declares, so it would read the GraphML that ``?format=graphml`` gives at the
# graph's address as the JSON declared there, and fail.
_GRAPHML_ONLY: list[type[BaseRenderer]] = [GraphMLRenderer]


class ContrastGraphMLView(ContrastGraphView):
    """The contrast graph as GraphML, for Gephi, Cytoscape or yEd (as ``?format=graphml`` at the contrast graph's address)."""

    renderer_classes = _GRAPHML_ONLY

    @extend_schema(summary=gettext_lazy("Contrast graph of two or more works, as GraphML"),
                   parameters=[ContrastGraphParamsSerializer], responses=_graphml_responses(_CONTRAST_ERRORS))
    def get(self, request: Request) -> HttpResponseBase:
        return super().get(request)


class LocalGraphMLView(LocalGraphView):
    """The local graph around a node as GraphML (as ``?format=graphml`` at the local graph's address)."""

    renderer_classes = _GRAPHML_ONLY

    @extend_schema(summary=gettext_lazy("Local graph around a node, as GraphML"), parameters=[LocalGraphParamsSerializer],
                   responses=_graphml_responses(_LOCAL_ERRORS))
    def get(self, request: Request) -> HttpResponseBase:
        return super().get(request)


class MapGraphMLView(MapGraphView):
    """The map of works as GraphML, with what it holds and where it was cut as the graph's data (as
    ``?format=graphml`` at the map's address)."""

    renderer_classes = _GRAPHML_ONLY

    @extend_schema(summary=gettext_lazy("Map of works, as GraphML"), parameters=[MapGraphParamsSerializer],
                   responses=_graphml_responses())
    def get(self, request: Request) -> Response:
        return super().get(request)
