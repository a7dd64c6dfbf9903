"""Text fields that take JSON strings only.

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
            wrong = {
                name: [_("Not a valid string.")]
                for name, field in self.fields.items()
                if not field.read_only and name in data and not _strings_where_expected(field, data[name])
            }
            if wrong:
                raise serializers.ValidationError(wrong, code="invalid")
        return super().to_internal_value(data)  # type: ignore[misc]  # the serializer this is mixed into


def _strings_where_expected(field: serializers.Field, value: Any) -> bool:
    """False when a text field, or a slug naming another object, got something other than a string."""
    if value is None:
        return True
    if isinstance(field, serializers.ManyRelatedField) and isinstance(field.child_relation, serializers.SlugRelatedField):
        return not isinstance(value, list) or all(isinstance(item, str) for item in value)
    if isinstance(field, (serializers.CharField, serializers.SlugRelatedField)):
        return isinstance(value, str)
    return True
