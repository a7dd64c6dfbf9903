from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


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
    without its trailing slash (``/api/v1/pages``) is not shown as a "Not Found" step on the way to a list."""
    response: HttpResponse = _not_found(request, *args, **kwargs)
    return response
