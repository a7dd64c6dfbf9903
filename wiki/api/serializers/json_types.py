"""Fields that take the JSON type their schema gives, and no other: strings for text (no longer than the
schema's maxLength as sent), booleans for yes/no, integers for numbers and ids, arrays for lists.

DRF reads request bodies as leniently as HTML forms: ``CharField`` turns a number sent for a text field into
its digits (``{"title": 7}`` would be saved as the title "7"), ``BooleanField`` takes 0, 1 and "yes", and
``IntegerField`` takes "3". The schema says which JSON type each field is, and a client sending another
has a bug the API should name. So has one sending a field the endpoint does not write: a name it does not know
(a typo would otherwise be dropped silently and the edit reported as saved), or one it only reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, cast

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail
from rest_framework.settings import api_settings

from wiki.models.rules import FullMatchValidator, is_control_free

# Sent by the browsable API's HTML forms along with the fields.
FORM_FIELDS = frozenset({"csrfmiddlewaretoken"})


class JSONTypes:
    """Mixed into a serializer that reads a request body: a value of another JSON type than the field's is a 400,
    and so is a field it does not write (unknown, or read-only), named in ``errors``."""

    fields: Any
    # Fields of the object as read that this serializer does not write (a read-only field of its own is one too).
    read_only_names: ClassVar[frozenset[str]] = frozenset()
    # Fields the serializer checks itself before these checks (a page's slug, sent unchanged).
    tolerated_names: ClassVar[frozenset[str]] = frozenset()

    @property
    def errors(self) -> Any:
        errors = super().errors  # type: ignore[misc]  # the serializer this is mixed into
        # DRF says of a body that is JSON null, in English whatever the client reads, "No data provided".
        if [getattr(error, "code", None) for error in errors.get(api_settings.NON_FIELD_ERRORS_KEY, ())] == ["null"]:
            errors[api_settings.NON_FIELD_ERRORS_KEY] = [ErrorDetail(str(_("The body is null: send a JSON object.")), code="null")]
        return errors

    def get_fields(self) -> dict[str, serializers.Field]:
        fields: dict[str, serializers.Field] = super().get_fields()  # type: ignore[misc]  # the serializer this is mixed into
        for field in fields.values():
            # The wiki's character rules refuse a NUL already, with a message naming every character refused:
            # DRF's own check would add a second message for the same character.
            if isinstance(field, serializers.CharField) and any(isinstance(v, FullMatchValidator) for v in field.validators):
                field.validators = [v for v in field.validators if not isinstance(v, ProhibitNullCharactersValidator)]
        return fields

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, Mapping):
            return super().to_internal_value(data)  # type: ignore[misc]  # the serializer this is mixed into
        wrong = _unwritable(self.fields, data, read_only=self.read_only_names, tolerated=self.tolerated_names | FORM_FIELDS)
        for name, field in self.fields.items():
            problem = None if field.read_only or name not in data else _type_problem(field, data[name])
            if problem:
                # the code of the rule broken, as DRF would give it for the same mistake; else invalid
                wrong[name] = [problem if isinstance(problem, ErrorDetail) else ErrorDetail(problem, code="invalid")]
        if not wrong:
            return super().to_internal_value(data)  # type: ignore[misc]
        # The other fields are read all the same, so that one answer names every mistake, not the first kind found.
        try:
            super().to_internal_value({name: value for name, value in data.items() if name not in wrong})  # type: ignore[misc]
        except serializers.ValidationError as error:
            if isinstance(error.detail, dict):
                wrong.update((name, cast(list[ErrorDetail], errors)) for name, errors in error.detail.items() if name not in wrong)
        raise serializers.ValidationError(wrong)


def _unwritable(fields: Any, data: Mapping[str, Any], *, read_only: frozenset[str],
                tolerated: frozenset[str]) -> dict[str, list[ErrorDetail]]:
    """The fields sent that the serializer does not write (read-only, or unknown), each with why."""
    wrong: dict[str, list[ErrorDetail]] = {}
    for name in data:
        if name in tolerated or (name in fields and not fields[name].read_only):
            continue
        if name in fields or name in read_only:
            wrong[str(name)] = [ErrorDetail(str(_("This field is read-only: it cannot be written here.")), code="read_only")]
        else:
            wrong[str(name)] = [ErrorDetail(str(_("Unknown field: this request has no field of that name.")), code="unknown_field")]
    return wrong


def _type_problem(field: serializers.Field, value: Any) -> str | None:
    """Why ``value`` is not what the schema gives ``field``, for what DRF lets through: a number for a text or a
    slug, a text over its limit before DRF trims its ends, a number or string for a boolean, a string for an
    integer or an id, an object for a list of related objects (DRF iterates its keys)."""
    if value is None:
        return None
    if isinstance(field, serializers.ManyRelatedField):
        if not isinstance(value, list):
            return ErrorDetail(str(field.error_messages["not_a_list"]).format(input_type=type(value).__name__), code="not_a_list")
        if isinstance(field.child_relation, serializers.SlugRelatedField) and not all(isinstance(item, str) for item in value):
            return str(_("Not a valid string."))
        if isinstance(field.child_relation, serializers.SlugRelatedField):
            return next(filter(None, (_no_such_slug(field.child_relation, item) for item in value)), None)
        return None
    if isinstance(field, serializers.ListField) and isinstance(field.child, serializers.CharField):
        if not isinstance(value, list):
            return ErrorDetail(str(field.error_messages["not_a_list"]).format(input_type=type(value).__name__), code="not_a_list")
        if not all(isinstance(item, str) for item in value):
            return str(_("Not a valid string."))
        return None
    if isinstance(field, (serializers.CharField, serializers.SlugRelatedField)) and not isinstance(value, str):
        return str(_("Not a valid string."))
    if isinstance(field, serializers.CharField) and field.max_length is not None and len(value) > field.max_length:
        # The schema's maxLength counts what was sent; DRF counts after trimming the ends.
        return ErrorDetail(str(field.error_messages["max_length"]).format(max_length=field.max_length), code="max_length")
    if isinstance(field, serializers.CharField) and field.trim_whitespace and _control_only_at_the_ends(value):
        # DRF trims the ends before the character rules run, and Python counts U+001C–U+001F and U+0085 as white
        # space: refused as sent, as the schema's pattern refuses it, rather than trimmed away and saved.
        return next(filter(None, (_refusal(v, value) for v in field.validators if isinstance(v, FullMatchValidator))), None)
    if isinstance(field, serializers.BooleanField) and not isinstance(value, bool):
        return str(_("Must be true or false."))
    if isinstance(field, (serializers.IntegerField, serializers.PrimaryKeyRelatedField)) and (
            isinstance(value, bool) or not isinstance(value, int)):
        return str(_("A valid integer is required."))
    if isinstance(field, serializers.SlugRelatedField) and value == "":
        # DRF reads "" as null for a related field that may be null; the schema asks for a slug or null.
        return ErrorDetail(str(field.error_messages["does_not_exist"]).format(slug_name=field.slug_field, value=""),
                           code="does_not_exist")
    if isinstance(field, serializers.SlugRelatedField):
        return _no_such_slug(field, value)
    return None


def _control_only_at_the_ends(value: str) -> bool:
    return not is_control_free(value) and is_control_free(value.strip())


def _refusal(validator: FullMatchValidator, value: str) -> str | None:
    try:
        validator(value)
    except DjangoValidationError as error:
        return ErrorDetail(str(error.messages[0]), code=error.error_list[0].code or "invalid")
    return None


def _no_such_slug(field: serializers.SlugRelatedField, value: str) -> str | None:
    """No slug holds a control character, and PostgreSQL cannot even look up a text holding NUL (a 500)."""
    if is_control_free(value):
        return None
    return ErrorDetail(str(field.error_messages["does_not_exist"]).format(
        slug_name=field.slug_field, value=value.encode("unicode_escape").decode()), code="does_not_exist")
