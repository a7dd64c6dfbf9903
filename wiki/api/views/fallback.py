from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
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
