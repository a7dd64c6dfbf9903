"""What ``OPTIONS`` says an address takes: the body its schema declares for each write."""

from __future__ import annotations

import inspect
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions, serializers
from rest_framework.metadata import SimpleMetadata
from rest_framework.request import Request, override_method

from wiki.field_labels import FIELD_LABELS, field_label_of


def request_serializer(view: Any, method: str) -> serializers.BaseSerializer[Any] | None:
    """The serializer of the body ``method`` sends, as the OpenAPI schema declares it (``extend_schema(request=…)``),
    else the view's own; None when it sends none, or a file rather than fields."""
    handler = getattr(view, view.action, None) if getattr(view, "action", None) else getattr(view, method.lower(), None)
    schema_class = getattr(handler, "kwargs", {}).get("schema")
    schema = schema_class() if schema_class is not None else view.schema
    schema.view, schema.method = view, method
    declared = schema.get_request_serializer()
    if inspect.isclass(declared) and issubclass(declared, serializers.BaseSerializer):
        return declared(context=view.get_serializer_context())
    return declared if isinstance(declared, serializers.BaseSerializer) else None


class WriteMetadata(SimpleMetadata):
    """REST framework describes a write by the view's ``get_serializer()``, which the wiki's views read with: a page's
    ``POST`` was told every field is read-only, a move's fields were the page's. Each write is described by the body
    its schema declares, for the action the method runs."""

    def determine_actions(self, request: Request, view: Any) -> dict[str, Any]:
        actions: dict[str, Any] = {}
        for method in ("POST", "PUT"):
            if method not in view.allowed_methods:
                continue
            with override_method(view, request, method) as cloned:
                try:
                    view.check_permissions(cloned)
                    if method == "PUT" and hasattr(view, "get_object"):
                        view.get_object()
                except (exceptions.APIException, PermissionDenied, Http404):
                    continue
                serializer = request_serializer(view, method)
                if serializer is not None:
                    actions[method] = self.get_serializer_info(serializer)
        return actions

    def get_field_info(self, field: serializers.Field[Any, Any, Any, Any]) -> dict[str, Any]:
        """A field given no label of its own is labelled as the wiki names it, in the request's language: REST framework
        would make one from the field's name, in English whatever the language asked for (``Base revision``)."""
        info: dict[str, Any] = super().get_field_info(field)
        if "label" not in field._kwargs and field.field_name in FIELD_LABELS:  # type: ignore[attr-defined]
            info["label"] = field_label_of(field.field_name)
        return info
