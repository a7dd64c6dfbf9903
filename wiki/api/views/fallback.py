from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from wiki.api.redirects import moved_permanently


@extend_schema(exclude=True)
class NotFoundView(APIView):
    """Any other path under /api/ answers 404 in the API's error shape rather than an HTML page."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    def dispatch_not_found(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        raise NotFound(_("No such endpoint."))

    get = post = put = patch = delete = head = options = dispatch_not_found


_not_found = NotFoundView.as_view()


@csrf_exempt
def not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """``NotFoundView`` as a plain function: the browsable API's breadcrumbs list only API views, so an address
    without its trailing slash (``/api/v1/pages``) is not shown as a "Not Found" step on the way to a list.

    An address of the API written without its final slash is redirected to the one with it, the query kept, as Django
    redirects the pages' (``APPEND_SLASH``): a read with 301, anything else with 308, which clients repeat there with
    the same method and body (a 301 would let a POST turn into a GET)."""
    slashed = _with_slash(request)
    if slashed is not None:
        return moved_permanently(request, slashed)
    response: HttpResponse = _not_found(request, *args, **kwargs)
    # the methods of this fallback, which no address has
    if response.has_header("Allow"):
        del response["Allow"]
    return response


def _with_slash(request: HttpRequest) -> str | None:
    """The address asked for with a final slash (its query kept), when an endpoint other than this one answers there."""
    if request.path_info.endswith("/"):
        return None
    try:
        match = resolve(f"{request.path_info}/")
    except Resolver404:
        return None
    return None if match.func is not_found else request.get_full_path(force_append_slash=True)
