from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache


@never_cache
def health(request: HttpRequest) -> JsonResponse:
    """For a load balancer: 200 when the database and the shared cache answer, 503 (saying which failed) otherwise."""
    checks: dict[str, str] = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        checks["database"] = "ok"
    except Exception as error:  # noqa: BLE001 - any failure means "not ready", reported by its class
        checks["database"] = f"error: {type(error).__name__}"
    try:
        cache.set("wiki:health", 1, 10)
        checks["cache"] = "ok" if cache.get("wiki:health") == 1 else "error: value not read back"
    except Exception as error:  # noqa: BLE001
        checks["cache"] = f"error: {type(error).__name__}"
    healthy = all(value == "ok" for value in checks.values())
    return JsonResponse({"status": "ok" if healthy else "unavailable", **checks}, status=200 if healthy else 503)
