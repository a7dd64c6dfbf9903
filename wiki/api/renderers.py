"""The API's renderers: JSON, the browsable pages, reference files as response bodies (BibTeX and CSL-JSON, chosen
by ``Accept`` or ``?format=bib|csl``) and graphs as GraphML (``?format=graphml``)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import networkx as nx
from rest_framework import renderers
from rest_framework.renderers import BaseRenderer, JSONRenderer

from wiki.references.formats import MEDIA_TYPES, ReferenceFormat


class BrowsableAPIRenderer(renderers.BrowsableAPIRenderer):
    """DRF's pages in a browser, without the inline stylesheet of code highlighting that the site's Content Security
    Policy refuses (the pages show no highlighted code)."""

    def get_context(self, data: Any, accepted_media_type: str | None, renderer_context: Mapping[str, Any]) -> dict[str, Any]:
        context: dict[str, Any] = super().get_context(data, accepted_media_type, renderer_context)
        context["code_style"] = None
        return context


class BibTeXRenderer(BaseRenderer):
    """The view's text as it is; an error body (a mapping) as the JSON every error is, with its media type."""

    media_type = MEDIA_TYPES[ReferenceFormat.BIBTEX]
    format = "bib"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: Mapping[str, Any] | None = None) -> bytes:
        if isinstance(data, str):
            return data.encode()
        response = (renderer_context or {}).get("response")
        if response is not None:
            response["Content-Type"] = "application/json"
        return json.dumps(data, ensure_ascii=False).encode()


class CSLJSONRenderer(JSONRenderer):
    """CSL-JSON is JSON with its own media type."""

    media_type = MEDIA_TYPES[ReferenceFormat.CSL_JSON]
    format = "csl"

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: Mapping[str, Any] | None = None) -> bytes:
        response = (renderer_context or {}).get("response")
        if response is not None and not isinstance(data, list):
            response["Content-Type"] = "application/json"  # an error body, not a list of items
        return super().render(data, accepted_media_type, renderer_context)


EXPORT_RENDERERS = [BibTeXRenderer, CSLJSONRenderer, JSONRenderer]


# Characters XML 1.0 cannot carry, even escaped: a title holding one would make the whole file unreadable.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml_text(value: Any, absolute: Any = None) -> Any:
    if isinstance(value, str):
        return _NOT_XML.sub("", absolute(value) if absolute else value)
    return value


class GraphMLRenderer(BaseRenderer):
    """A graph's nodes and edges as GraphML, which Gephi, Cytoscape and yEd open: every field of a node and an edge
    becomes an attribute of it (``label`` is the name those tools show), with the nodes' addresses made absolute so
    that they still lead to the wiki from another program. An error body stays the JSON every error is."""

    media_type = "application/graphml+xml"
    format = "graphml"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: Mapping[str, Any] | None = None) -> bytes:
        context = renderer_context or {}
        if not (isinstance(data, Mapping) and "nodes" in data and "edges" in data):
            if (response := context.get("response")) is not None:
                response["Content-Type"] = "application/json"
            return json.dumps(data, ensure_ascii=False).encode()
        request = context.get("request")
        absolute = request.build_absolute_uri if request is not None else None
        graph: nx.MultiDiGraph[str] = nx.MultiDiGraph()
        for node in data["nodes"]:
            graph.add_node(node["id"], **{key: _xml_text(value, absolute if key == "url" else None)
                                          for key, value in node.items() if key != "id"})
        for edge in data["edges"]:
            graph.add_edge(edge["source"], edge["target"],
                           **{key: _xml_text(value) for key, value in edge.items() if key not in ("source", "target")})
        return "\n".join(nx.generate_graphml(graph, encoding="utf-8")).encode()


GRAPH_RENDERERS = [JSONRenderer, BrowsableAPIRenderer, GraphMLRenderer]
