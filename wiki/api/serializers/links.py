"""Addresses in answers: absolute, as the lists' ``next`` and ``previous`` are, so a client can follow any of them as
it is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy
from rest_framework import serializers


def absolute(context: Mapping[str, Any], path: str) -> str:
    """``path`` on the host the request was sent to (a serializer given no request answers the path)."""
    request = context.get("request")
    return str(request.build_absolute_uri(path)) if request is not None else path


class BrowserURLField(serializers.URLField):
    """Where the object is read in the browser: its ``get_absolute_url`` (or ``source``), absolute."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("source", "get_absolute_url")
        kwargs.setdefault("help_text", gettext_lazy("The object in the browser (an absolute URL)."))
        super().__init__(read_only=True, **kwargs)

    def to_representation(self, value: Any) -> str:
        return absolute(self.context, str(value))
