"""The If-Match an edit sends: the ETag the client read."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient


def if_match(client: APIClient, url: str) -> dict[str, Any]:
    """The header naming the version of ``url`` that ``client`` reads now, as keyword arguments of a request."""
    return {"HTTP_IF_MATCH": client.get(url)["ETag"]}
