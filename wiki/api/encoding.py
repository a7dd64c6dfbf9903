"""A query string that is not UTF-8 is refused (400) rather than read with its bytes replaced: Django decodes
``?q=%ff`` as U+FFFD, which a search then looks for and finds nothing, so a client's encoding mistake looked like an
empty answer."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote_to_bytes

from django.http import HttpRequest, HttpResponseBase
from django.utils.translation import gettext

from wiki.api.errors import error_response

API_PREFIX = "/api/"


def undecodable_parameters(query_string: str) -> list[str]:
    """The names of the parameters whose name or value is not UTF-8 once percent-decoded (the WSGI server hands the
    query's bytes over as Latin-1)."""
    names = []
    for part in query_string.split("&"):
        pieces = [unquote_to_bytes(piece.replace("+", " ").encode("latin-1", "replace")) for piece in part.partition("=")[::2]]
        try:
            for piece in pieces:
                piece.decode("utf-8")
        except UnicodeDecodeError:
            names.append(pieces[0].decode("utf-8", "replace"))
    return names


class QueryEncodingMiddleware:
    """400 ``invalid_encoding`` for an API request whose query string is not UTF-8, naming its parameters."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        query = request.META.get("QUERY_STRING", "")
        wrong = undecodable_parameters(query) if query and request.path_info.startswith(API_PREFIX) else []
        if wrong:
            return error_response(400, "invalid_encoding",
                                  gettext("Not UTF-8: percent-encode the UTF-8 bytes of each parameter."), fields=wrong)
        return self.get_response(request)
