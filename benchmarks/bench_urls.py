from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


def bare(request: HttpRequest) -> HttpResponse:
    """As little as Django serves: the same middleware as every wiki view, no template, no query."""
    return HttpResponse("ok", content_type="text/plain")


class BareAPIView(APIView):
    """As little as REST framework serves: no authentication, permission or throttle, no query, a small JSON answer;
    the yardstick of api_bench.py."""

    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = []

    def get(self, request: Request) -> Response:
        return Response({"count": 0, "next": None, "previous": None, "results": []})


urlpatterns = [
    path("bench/bare/", bare),
    path("bench/bare-api/", BareAPIView.as_view()),
    path("", include("config.urls")),
]
