"""The API's renderers: JSON, the browsable pages, and reference files as response bodies (BibTeX and CSL-JSON,
chosen by ``Accept`` or ``?format=bib|csl``)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

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
