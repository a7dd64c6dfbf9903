"""Content negotiation that answers a ``?format=`` naming no format of the endpoint with a 400, as the other
query parameters are answered, instead of DRF's 404."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext
from rest_framework.exceptions import ValidationError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer


class StrictContentNegotiation(DefaultContentNegotiation):
    def filter_renderers(self, renderers: Iterable[BaseRenderer], format: str) -> list[BaseRenderer]:  # noqa: A002  DRF's name
        renderers = list(renderers)
        matching = [renderer for renderer in renderers if renderer.format == format]
        if not matching:
            known = ", ".join(sorted({str(renderer.format) for renderer in renderers}))
            raise ValidationError({"format": [gettext("Unknown format; this address answers in %(formats)s.") % {"formats": known}]},
                                  code="invalid_choice")
        return matching

