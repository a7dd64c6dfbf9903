"""Request bodies are JSON only, and nested at most ``MAX_DEPTH`` levels (no write needs more than three)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_DEPTH = 32


def depth_of(data: Any) -> int:
    """How deeply ``data`` nests lists and objects, counted without recursion."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            deepest = max(deepest, depth)
            if depth > MAX_DEPTH:
                return depth
            stack.extend((item, depth + 1) for item in (value.values() if isinstance(value, dict) else value))
    return deepest


class WikiJSONParser(JSONParser):
    """DRF's JSON parser, refusing with 400 what it would otherwise turn into a RecursionError (500)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            data = json.loads(stream.read().decode(encoding), parse_constant=_refuse_constant)
        except RecursionError:
            raise ParseError(f"JSON parse error - nested deeper than {MAX_DEPTH} levels.") from None
        except ValueError as error:
            raise ParseError(f"JSON parse error - {error}") from None
        if depth_of(data) > MAX_DEPTH:
            raise ParseError(f"JSON parse error - nested deeper than {MAX_DEPTH} levels.")
        return data


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not valid JSON")
