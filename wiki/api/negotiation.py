"""Content negotiation that answers a ``?format=`` naming no format of the endpoint with a 400, as the other
query parameters are answered, instead of DRF's 404."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext
from rest_framework.exceptions import NotAcceptable, ValidationError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request


class StrictContentNegotiation(DefaultContentNegotiation):
    def select_renderer(self, request: Request, renderers: Iterable[BaseRenderer],
                        format_suffix: str | None = None) -> tuple[BaseRenderer, str]:
        """DRF's choice by the Accept header, except that a ``?format=`` the endpoint answers in wins over an Accept
        header naming another (``?format=bib`` with ``Accept: application/json`` is BibTeX, not a 406): the query
        is what the client wrote for this request, the header often what its library sends to every address."""
        renderers = list(renderers)
        try:
            chosen: tuple[BaseRenderer, str] = super().select_renderer(request, renderers, format_suffix)
        except NotAcceptable:
            format_asked = format_suffix or request.query_params.get(self.settings.URL_FORMAT_OVERRIDE)
            if not format_asked:
                raise
            renderer = self.filter_renderers(renderers, format_asked)[0]
            return renderer, str(renderer.media_type)
        return chosen

    def filter_renderers(self, renderers: Iterable[BaseRenderer], format: str) -> list[BaseRenderer]:  # noqa: A002  DRF's name
        renderers = list(renderers)
        matching = [renderer for renderer in renderers if renderer.format == format]
        if not matching:
            known = ", ".join(sorted({str(renderer.format) for renderer in renderers}))
            raise ValidationError({"format": [gettext("Unknown format; this address answers in %(formats)s.") % {"formats": known}]},
                                  code="invalid_choice")
        return matching

