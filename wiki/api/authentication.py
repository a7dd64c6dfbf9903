"""Token authentication that also reads ``Authorization: Bearer <key>``, the default of generated clients."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication
from rest_framework.request import Request


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>`` or ``Authorization: Bearer <key>``: the same token either way."""

    keywords = ("Token", "Bearer")

    def authenticate(self, request: Request) -> Any:
        scheme = authentication.get_authorization_header(request).split(b" ", 1)[0].decode("latin-1")
        # DRF compares the header's first word with ``self.keyword``; the instance lives for one request.
        self.keyword = next((k for k in self.keywords if k.lower() == scheme.lower()), self.keywords[0])
        return super().authenticate(request)


class TokenAuthenticationScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]  # drf-spectacular's registration hook is untyped
    target_class = TokenAuthentication
    name = ["tokenAuth", "bearerAuth"]

    def get_security_requirement(self, auto_schema: Any) -> list[dict[str, list[Any]]]:
        # either scheme (two requirements), not both at once (one requirement naming both): they share one header
        return [{name: []} for name in self.name]

    def get_security_definition(self, auto_schema: Any) -> list[dict[str, Any]]:
        return [
            {"type": "apiKey", "in": "header", "name": "Authorization",
             "description": "`Token <key>`: the key from /account/token/ or `manage.py api_token`."},
            {"type": "http", "scheme": "bearer", "description": "The same key as `Bearer <key>`."},
        ]
