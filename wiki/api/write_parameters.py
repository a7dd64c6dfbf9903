"""A write sent with a query parameter it does not read is refused (400) rather than carried out as if it had not
been sent: no write of the API reads one, so ``POST /api/v1/sources/import/?dry_run=1`` would otherwise import the
file for good, and ``PATCH …?notify=0`` save as any other edit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponseBase
from django.utils.translation import gettext

from wiki.api.errors import fields_error_response
from wiki.api.filters import COMMON_PARAMETERS
from wiki.api.views import fallback

API_PREFIX = "/api/"
# What a write may leave as the address it was read from carries them: the format asked for, a list's paging and order.
READ_ALONG = COMMON_PARAMETERS
_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class WriteParametersMiddleware:
    """400 ``unknown_parameter`` for a write (POST, PUT, PATCH, DELETE) to an API endpoint sending a query parameter
    other than those a list reads, naming each; an address no endpoint has stays a 404."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any) -> HttpResponseBase | None:
        if request.method not in _WRITES or not request.path_info.startswith(API_PREFIX) or not _handles(view, request.method):
            return None
        unknown = sorted(set(request.GET) - READ_ALONG)
        if not unknown:
            return None
        return fields_error_response(400, "unknown_parameter", gettext(
            "A write reads no query parameter: send what it reads in the body (this endpoint's schema names it)."),
            fields=unknown)


def _handles(view: Callable[..., Any], method: str) -> bool:
    """Whether the API view answers ``method`` (a viewset by its actions): any other is its 405, not this 400, and an
    address no endpoint has stays a 404."""
    cls = getattr(view, "cls", None)
    if cls is None or view is fallback.not_found:
        return False
    name = method.lower()
    actions = getattr(view, "actions", None)
    return name in cls.http_method_names and (name in actions if actions is not None else hasattr(cls, name))
