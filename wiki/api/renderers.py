"""The API's renderers: JSON, the browsable pages, reference files as response bodies (BibTeX, CSL-JSON and RIS,
chosen by ``Accept`` or ``?format=bib|csl|ris``) and graphs as GraphML (``?format=graphml``)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from django.utils.translation import gettext
from rest_framework import renderers, status
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request

from wiki.api import browsable
from wiki.references.formats import MEDIA_TYPES, ReferenceFormat


class BrowsableAPIRenderer(renderers.BrowsableAPIRenderer):
    """DRF's pages in a browser, without the inline stylesheet of code highlighting that the site's Content Security
    Policy refuses (the pages show no highlighted code), each page and its breadcrumbs named and described in the
    reader's language (``wiki.api.browsable``), its words too (``templates/rest_framework/api.html``)."""

    def get_context(self, data: Any, accepted_media_type: str | None, renderer_context: Mapping[str, Any]) -> dict[str, Any]:
        context: dict[str, Any] = super().get_context(data, accepted_media_type, renderer_context)
        context["code_style"] = None
        return context

    def get_name(self, view: Any) -> str:
        return browsable.page_name(view, view.request.method)

    def get_description(self, view: Any, status_code: int) -> str:
        if status_code in (status.HTTP_401_UNAUTHORIZED, status.HTTP_403_FORBIDDEN):
            return ""
        return browsable.page_description(view, view.request.method)

    def get_breadcrumbs(self, request: Request) -> list[tuple[str, str]]:
        crumbs: list[tuple[str, str]] = super().get_breadcrumbs(request)
        return [(browsable.name_at(url, request) or name, url) for name, url in crumbs]

    def get_extra_actions(self, view: Any, status_code: int) -> dict[str, str] | None:
        urls: dict[str, str] | None = super().get_extra_actions(view, status_code)
        return browsable.extra_action_names(view, urls) if urls else urls

    def get_raw_data_form(self, data: Any, view: Any, method: str, request: Request) -> Any:
        """REST framework's form of a raw body, its two fields labelled in the reader's language (REST framework's
        own labels are not marked for translation)."""
        form = super().get_raw_data_form(data, view, method, request)
        if form is not None:
            form.fields["_content_type"].label = gettext("Media type")
            form.fields["_content"].label = gettext("Content")
        return form


class BibTeXRenderer(BaseRenderer):
    """The view's text as it is; an error body (a mapping) as the JSON every error is, with its media type."""

    media_type = MEDIA_TYPES[ReferenceFormat.BIBTEX]
    format = "bib"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: Mapping[str, Any] | None = None) -> str | bytes:
        if isinstance(data, str):
            # as text, which DRF encodes and sends with its media type even when empty (an RIS file of no works): empty
            # bytes it sends with no Content-Type at all
            return data
        response = (renderer_context or {}).get("response")
        if response is not None:
            response["Content-Type"] = "application/json"
        return json.dumps(data, ensure_ascii=False).encode()


class RISRenderer(BibTeXRenderer):
    """RIS, as text; an error body as JSON, as for BibTeX."""

    media_type = MEDIA_TYPES[ReferenceFormat.RIS]
    format = "ris"


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


EXPORT_RENDERERS = [BibTeXRenderer, CSLJSONRenderer, RISRenderer, JSONRenderer]


# Characters XML 1.0 cannot carry, even escaped: a title holding one would make the whole file unreadable.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml_text(value: Any) -> str:
    return _NOT_XML.sub("", str(value))


def _graph_data(data: Mapping[str, Any]) -> dict[str, Any]:
    """What an answer says of its graph as a whole (its centre, its subjects, the map's ``summary``: how many works
    and contrasts there are, how many it holds and where it was cut), as the graph's own GraphML data."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in ("nodes", "edges"):
            continue
        for name, item in value.items() if isinstance(value, Mapping) else [(key, value)]:
            if isinstance(item, list):
                item = " ".join(map(str, item))
            if isinstance(item, bool | int | float | str):
                out[name] = item
    return out


_GRAPHML_TYPES = ((bool, "boolean"), (int, "long"), (float, "double"))
_GRAPHML_HEAD = ('<?xml version="1.0" encoding="utf-8"?>\n<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
                 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/'
                 'xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">')


def _graphml_type(value: Any) -> str:
    return next((name for kind, name in _GRAPHML_TYPES if isinstance(value, kind)), "string")


def _graphml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return escape(_xml_text(value))


def _graphml_keys(prefix: str, items: Iterable[Mapping[str, Any]], skip: tuple[str, ...]) -> dict[str, tuple[str, str]]:
    """Each field of ``items`` (in the order first met) as a GraphML key: its id and its type."""
    keys: dict[str, tuple[str, str]] = {}
    for item in items:
        for name, value in item.items():
            if name not in skip and name not in keys and value is not None:
                keys[name] = (f"{prefix}{len(keys)}", _graphml_type(value))
    return keys


def _absolute(site: str, url: Any) -> Any:
    return site + url if isinstance(url, str) and url.startswith("/") else url


class GraphMLRenderer(BaseRenderer):
    """A graph's nodes and edges as GraphML, which Gephi, Cytoscape and yEd open: every field of a node and an edge
    becomes an attribute of it (``label`` is the name those tools show), with the nodes' addresses made absolute so
    that they still lead to the wiki from another program; what the answer says of the graph as a whole (a map's
    summary: how much of the wiki it holds, and where it was cut) becomes the graph's data. An error body stays the
    JSON every error is.

    Written out directly, one line per node and edge: a map of tens of thousands of works is written in a second or
    so, in about twice the memory of the file, where building it as an XML tree took ten times both."""

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
        # every address is the wiki's own path: one absolute prefix for them all
        site = request.build_absolute_uri("/")[:-1] if request is not None else ""
        graph = _graph_data(data)
        keys = {
            "graph": {name: (f"g{i}", _graphml_type(value)) for i, (name, value) in enumerate(graph.items())},
            "node": _graphml_keys("n", data["nodes"], ("id",)),
            "edge": _graphml_keys("e", data["edges"], ("source", "target")),
        }
        out = [_GRAPHML_HEAD]
        for kind, of_kind in keys.items():
            out.extend(f'<key id="{key}" for="{kind}" attr.name={quoteattr(name)} attr.type="{type_}"/>'
                       for name, (key, type_) in of_kind.items())
        out.append('<graph edgedefault="directed">')
        out.extend(f'<data key="{keys["graph"][name][0]}">{_graphml_value(value)}</data>' for name, value in graph.items())

        def fields(item: Mapping[str, Any], of: dict[str, tuple[str, str]]) -> str:
            return "".join(f'<data key="{of[name][0]}">{_graphml_value(_absolute(site, value) if name == "url" else value)}</data>'
                           for name, value in item.items() if name in of and value is not None)

        for node in data["nodes"]:
            out.append(f'<node id={quoteattr(_xml_text(node["id"]))}>{fields(node, keys["node"])}</node>')
        for edge in data["edges"]:
            out.append(f'<edge source={quoteattr(_xml_text(edge["source"]))} target={quoteattr(_xml_text(edge["target"]))}>'
                       f'{fields(edge, keys["edge"])}</edge>')
        out.append("</graph></graphml>\n")
        return "\n".join(out).encode()


GRAPH_RENDERERS = [JSONRenderer, BrowsableAPIRenderer, GraphMLRenderer]
