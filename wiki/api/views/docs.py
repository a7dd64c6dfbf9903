"""The OpenAPI schema and the two pages that read it.

The schema is a contract: generated clients name their classes and modules after its titles, so it is English
unless ``?lang=`` asks for another language, whatever language the machine fetching it reads. The documentation
pages are for people: they ask for the schema in the reader's language.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from django.http import HttpRequest
from django.utils import translation
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView
from rest_framework import status
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from wiki.api.throttles import ScopedThrottle
from wiki.api.views.base import WikiAPIView

SCHEMA_LANGUAGE = "en"


class _ErrorsInJSON:
    """An error is the API's one JSON shape: not a YAML document under the schema's media type, nor the English
    plain text ("405 Method Not Allowed") the documentation pages' HTML renderer writes for one, whatever the
    reader's language. DRF answers an error in the view's first renderer when the format asked for is none of them."""

    def finalize_response(self, request: Request, response: Response, *args: Any, **kwargs: Any) -> Response:
        if isinstance(response, Response) and response.status_code >= status.HTTP_400_BAD_REQUEST:
            request.accepted_renderer, request.accepted_media_type = JSONRenderer(), JSONRenderer.media_type
        finalized: Response = super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]
        return finalized


class SchemaView(_ErrorsInJSON, WikiAPIView, SpectacularAPIView):
    """The schema, fetched by generators and the docs pages: counted at its own rate (``API_SCHEMA_RATE``), not
    against the reads of an anonymous client's budget."""

    throttle_classes = [ScopedThrottle]
    throttle_scope = "schema"

    @extend_schema(exclude=True)
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        # drf-spectacular reads ?lang= itself; without it, the schema's language is ours, not the request's
        with nullcontext() if request.GET.get("lang") else translation.override(SCHEMA_LANGUAGE):
            response: Response = super().get(request, *args, **kwargs)  # type: ignore[no-untyped-call]
        return response



class _InReadersLanguage:
    def _get_schema_url(self, request: HttpRequest) -> str:
        url: str = super()._get_schema_url(request)  # type: ignore[misc]
        if "lang=" in url:
            return url
        return f"{url}{'&' if '?' in url else '?'}lang={translation.get_language()}"


class SwaggerView(_ErrorsInJSON, _InReadersLanguage, WikiAPIView, SpectacularSwaggerSplitView):
    pass


class RedocView(_ErrorsInJSON, _InReadersLanguage, WikiAPIView, SpectacularRedocView):
    pass
