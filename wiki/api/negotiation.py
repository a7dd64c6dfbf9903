"""Content negotiation that answers a ``?format=`` naming no format of the endpoint with a 400, as the other
query parameters are answered, instead of DRF's 404; that reads the Accept header's qualities (RFC 9110 section
12.5.1), which DRF does not: a media type given ``q=0`` is one the client does not accept, and of two it accepts the one
with the higher ``q`` is answered; and whose 406 names the formats the address answers in."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.utils.http import parse_header_parameters
from django.utils.translation import gettext, pgettext
from rest_framework.exceptions import NotAcceptable, ValidationError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.utils.mediatypes import media_type_matches, order_by_precedence

from wiki.text.lists import joined


def available_media_types(renderers: Iterable[BaseRenderer]) -> list[str]:
    """The media types ``renderers`` answer in, each once, in the endpoint's order."""
    return list(dict.fromkeys(str(renderer.media_type) for renderer in renderers))


class NoFormatAccepted(NotAcceptable):
    """406 naming the formats the address answers in (its renderers' media types), in the reader's language; the
    error's body lists them as ``available`` (:func:`wiki.api.errors.api_exception_handler`)."""

    def __init__(self, renderers: Sequence[BaseRenderer]) -> None:
        types = pgettext("list separator", ", ").join(available_media_types(renderers))
        detail = gettext("The Accept header accepts none of the formats this address answers in: %(types)s.") % {
            "types": types}
        super().__init__(detail=detail, available_renderers=renderers)


def _quality(token: str) -> float:
    """The ``q`` of one range of an Accept header; one that cannot be read counts as 1, as Django reads it."""
    try:
        _media_type, params = parse_header_parameters(token)
        quality = float(params.get("q", "1"))
    except ValueError:
        return 1.0
    return quality if 0 <= quality <= 1 else 1.0


class StrictContentNegotiation(DefaultContentNegotiation):
    def select_renderer(self, request: Request, renderers: Iterable[BaseRenderer],
                        format_suffix: str | None = None) -> tuple[BaseRenderer, str]:
        """DRF's choice by the Accept header among the renderers it prefers (the highest ``q``; one it gives ``q=0``
        it refuses), except that a ``?format=`` the endpoint answers in wins over an Accept header naming another
        (``?format=bib`` with ``Accept: application/json`` is BibTeX, not a 406): the query is what the client wrote
        for this request, the header often what its library sends to every address."""
        renderers = list(renderers)
        format_asked = format_suffix or request.query_params.get(self.settings.URL_FORMAT_OVERRIDE)
        accepted = renderers if format_asked else self._preferred(request, renderers)
        try:
            chosen: tuple[BaseRenderer, str] = super().select_renderer(request, accepted, format_suffix)
        except NotAcceptable:
            if not format_asked:
                raise NoFormatAccepted(renderers) from None
            renderer = self.filter_renderers(renderers, format_asked)[0]
            return renderer, str(renderer.media_type)
        return chosen

    def _preferred(self, request: Request, renderers: list[BaseRenderer]) -> list[BaseRenderer]:
        """The renderers whose media type the Accept header gives the highest quality, none if it refuses them all
        (``q=0``); among those, DRF chooses by how specifically the header names them and in the view's order."""
        qualities = [(renderer, self._quality(request, renderer)) for renderer in renderers]
        best = max((quality for _renderer, quality in qualities), default=0.0)
        return [renderer for renderer, quality in qualities if quality == best] if best > 0 else []

    def _quality(self, request: Request, renderer: BaseRenderer) -> float:
        """The quality the Accept header gives the renderer's media type: that of the most specific ranges matching it
        (RFC 9110 section 12.5.1: ``*/*, application/json;q=0`` refuses JSON; ``application/*;q=0, application/json``
        does not), 0 when none does."""
        tokens = super().get_accept_list(request)
        for ranges in order_by_precedence(tokens):
            matching = [token for token in ranges if media_type_matches(renderer.media_type, token)]
            if matching:
                return max(_quality(token) for token in matching)
        return 0.0

    def get_accept_list(self, request: Request) -> list[str]:
        """The Accept header's ranges but those it gives ``q=0``: a range the client refuses accepts nothing."""
        return [token for token in super().get_accept_list(request) if _quality(token) != 0]

    def filter_renderers(self, renderers: Iterable[BaseRenderer], format: str) -> list[BaseRenderer]:  # noqa: A002  DRF's name
        renderers = list(renderers)
        matching = [renderer for renderer in renderers if renderer.format == format]
        if not matching:
            known = joined(sorted({str(renderer.format) for renderer in renderers}))
            raise ValidationError({"format": [gettext("Unknown format; this address answers in %(formats)s.") % {"formats": known}]},
                                  code="invalid_choice")
        return matching
