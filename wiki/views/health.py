from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache

from wiki.health import health_check

HEALTH_PATH = "/health/"
_OFF = {"0", "false", "no", "off"}


@never_cache
def health(request: HttpRequest) -> JsonResponse:
    """For a load balancer: 200 while the server can serve (the primary PostgreSQL answers), the cache or a replica
    that does not answer reported as such; 503 when the primary does not. With ``?strict=1``, for monitoring: 200 only
    when everything answers."""
    report = health_check()
    strict = "strict" in request.GET and request.GET["strict"].strip().lower() not in _OFF
    up = report.whole if strict else report.serving
    return JsonResponse(report.as_json(), status=200 if up else 503)


class HealthCheckMiddleware:
    """Answers the health check before any other middleware reads the request's Host: a load balancer probes each
    server at its own address, which no ``ALLOWED_HOSTS`` lists, and would take the 400 for a server that is down."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == HEALTH_PATH:
            return health(request)
        return self.get_response(request)
