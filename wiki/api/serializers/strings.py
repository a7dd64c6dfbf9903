"""Text fields that take JSON strings only, lists that take JSON arrays only.

DRF's ``CharField`` turns a number sent for a text field into its digits, so ``{"title": 7}`` would be
saved as the title "7"; the schema says the field is a string, and a client sending a number has a bug
the API should name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers


class JSONStrings:
    """Mixed into a serializer that reads a request body: a non-string sent for a text field is a 400."""

    fields: Any

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            wrong = {}
            for name, field in self.fields.items():
                problem = None if field.read_only or name not in data else _type_problem(field, data[name])
                if problem:
                    wrong[name] = [problem]
            if wrong:
                raise serializers.ValidationError(wrong, code="invalid")
        return super().to_internal_value(data)  # type: ignore[misc]  # the serializer this is mixed into


def _type_problem(field: serializers.Field, value: Any) -> str | None:
    """Why ``value`` is not of the JSON type the schema gives ``field``, for the types DRF lets through: a number
    for a text or a slug, an object for a list of related objects (DRF iterates its keys)."""
    if value is None:
        return None
    if isinstance(field, serializers.ManyRelatedField):
        if not isinstance(value, list):
            return str(field.error_messages["not_a_list"]).format(input_type=type(value).__name__)
        if isinstance(field.child_relation, serializers.SlugRelatedField) and not all(isinstance(item, str) for item in value):
            return str(_("Not a valid string."))
        return None
    if isinstance(field, serializers.ListField) and isinstance(field.child, serializers.CharField):
        if not isinstance(value, list):
            return str(field.error_messages["not_a_list"]).format(input_type=type(value).__name__)
        if not all(isinstance(item, str) for item in value):
            return str(_("Not a valid string."))
        return None
    if isinstance(field, (serializers.CharField, serializers.SlugRelatedField)) and not isinstance(value, str):
        return str(_("Not a valid string."))
    if isinstance(field, serializers.SlugRelatedField) and value == "":
        # DRF reads "" as null for a related field that may be null; the schema asks for a slug or null.
        return str(field.error_messages["does_not_exist"]).format(slug_name=field.slug_field, value="")
    return None
