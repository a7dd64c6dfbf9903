"""API reads computed once per content version, after authentication and throttling have run.

Every client of one address gets the same data (no field depends on who asks; links hold the host), so the data
is cached like the HTML pages are: keyed by the content version, which every write moves.
"""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.response import Response

from wiki.caching.values import cached_value


class CachedReadsMixin:
    """For a ``ModelViewSet``: ``list`` and ``retrieve`` answer from the cache."""

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self._cached(request, "list", lambda: super(CachedReadsMixin, self).list(request, *args, **kwargs))  # type: ignore[misc]

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self._cached(request, "retrieve", lambda: super(CachedReadsMixin, self).retrieve(request, *args, **kwargs))  # type: ignore[misc]

    def _cached(self, request: Request, action: str, respond: Any) -> Response:
        def build() -> tuple[int, object]:
            response = respond()
            return response.status_code, response.data

        status, data = cached_value(request._request, f"api-{action}", type(self).__name__, request.build_absolute_uri(),
                                    build=build)
        return Response(data, status=status)
