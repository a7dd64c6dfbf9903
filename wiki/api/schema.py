"""OpenAPI details the generator cannot infer: the error bodies every operation may answer with."""

from __future__ import annotations

import re
from typing import Any, Literal

from django.utils.translation import gettext, gettext_lazy
from django_stubs_ext import StrOrPromise
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ComponentRegistry, force_instance, get_lib_doc_excludes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers
from rest_framework.permissions import SAFE_METHODS, AllowAny, IsAuthenticated

from wiki.api.serializers.json_types import JSONTypes
from wiki.api.views.base import WikiAPIView


class ErrorSerializer(serializers.Serializer):
    """The body of every 4xx answer."""

    detail = serializers.CharField(help_text=gettext_lazy("What went wrong, for a person."))
    code = serializers.CharField(
        help_text=gettext_lazy("Machine-readable: invalid, required, parse_error, not_authenticated, authentication_failed, "
        "permission_denied, not_found, method_not_allowed, edit_conflict, invalid_cursor, throttled, …")
    )
    errors = serializers.DictField(  # type: ignore[assignment]  # a field named like Serializer.errors
        child=serializers.ListField(child=serializers.CharField()),
        help_text=gettext_lazy("Messages per field (dotted for nested fields; non_field_errors for the whole input). Empty unless 400, "
                               "or a 404 naming the parameter at fault (`page`, a number past the last page)."),
    )
    codes = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text=gettext_lazy("The machine-readable code of each message in errors, field by field, in the same order "
                               "(invalid, required, invalid_choice, unknown_field, read_only, max_length, …); code is the first one's."),
    )


class RevisionContentSerializer(serializers.Serializer):
    title = serializers.CharField()
    summary = serializers.CharField(allow_blank=True)
    body = serializers.CharField(allow_blank=True)


class EditConflictSerializer(ErrorSerializer):
    """409: someone saved the page after ``base_revision``; both versions are returned so nothing is lost."""

    base_revision = serializers.IntegerField()
    current_revision = serializers.IntegerField()
    yours = RevisionContentSerializer()
    theirs = RevisionContentSerializer()


class DuplicateSerializer(ErrorSerializer):
    """409: the source exists already (same arXiv ID, DOI or normalised title)."""

    existing = serializers.CharField(help_text=gettext_lazy("Slug of the existing source."))
    missing = serializers.DictField(child=serializers.CharField(), required=False, help_text=gettext_lazy(
        "Identifiers sent that the existing source lacks (another version of the work): arxiv_id, doi."))


class QuestionDuplicateSerializer(ErrorSerializer):
    """409: the same question (title, text and page) is in the queue already, unresolved."""

    existing = serializers.IntegerField(help_text=gettext_lazy("Id of the existing question."))
    html_url = serializers.URLField(help_text=gettext_lazy("The existing question in the browser (an absolute URL)."))


def _open_to_all(view: Any) -> bool:
    return all(permission is AllowAny for permission in getattr(view, "permission_classes", []))


def _for_accounts(view: Any) -> bool:
    """Whether the view answers logged-in clients only, whatever they do (a reader's own watchlist)."""
    return any(permission is IsAuthenticated for permission in getattr(view, "permission_classes", []))


def _error(description: StrOrPromise) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


NOT_LOGGED_IN = gettext_lazy("Not logged in, or a wrong or expired token: log in or send `Authorization: Token <key>` (or "
                             "`Bearer <key>`).")

# Every read carries an ETag (wiki.api.conditional): a client that sends it back gets 304 while nothing changed.
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match", str, OpenApiParameter.HEADER, required=False,
    description=gettext_lazy("The ETag of the answer you hold: while it is still the answer, the reply is 304 with no body."),
)


def doc_excludes() -> list[type]:
    """The classes whose docstrings describe no component (drf-spectacular's ``GET_LIB_DOC_EXCLUDES``): DRF's own, and
    the wiki's mixins, which say what they add to a serializer; a serializer without a docstring of its own would
    otherwise be described, and its generated class documented, by the mixin's. The API's base view says how it
    answers a method, not what an endpoint is."""
    return [*get_lib_doc_excludes(), JSONTypes, WikiAPIView]  # type: ignore[no-untyped-call]  # drf-spectacular is untyped here


def translated_description(schema: AutoSchema) -> str:
    """The operation's description in the active language. It is written in English, as the view's docstring or the
    ``description`` of its ``extend_schema``, and is a message of the catalogues as it stands (``tests/wiki/
    test_catalogue.py`` reads every operation's, and every component's); ``extend_schema``'s own ``get_description``
    answers without calling the wiki's schema, so the translation is made where the description is read."""
    description = schema.get_description()
    return gettext(str(description)) if description else ""


class WikiAutoSchema(AutoSchema):
    """Adds the shared error responses to each operation, by method and by whether it names one object, and the
    conditional read every GET answers; describes the operation, and each component, in the schema's language."""

    def get_operation(self, path: str, path_regex: str, path_prefix: str, method: str,
                      registry: ComponentRegistry) -> dict[str, Any] | None:
        operation: dict[str, Any] | None = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation and operation.get("description"):
            operation["description"] = translated_description(self)
        return operation

    def get_override_parameters(self) -> list[Any]:
        parameters: list[Any] = list(super().get_override_parameters())
        if self.method == "GET":
            parameters.append(IF_NONE_MATCH)
        return parameters

    def get_auth(self) -> list[dict[str, list[str]]]:
        """Reads (and operations open to all) work without credentials: they declare no requirement at all.

        OpenAPI says "credentials optional" with an empty requirement beside the schemes, but generators read any
        requirement as "credentials needed" (openapi-python-client types such an operation as taking an
        ``AuthenticatedClient`` only, so an anonymous script could not call a read), while a token sent to a read
        is still read (its account's language, budget and ``assigned=me``)."""
        if (self.method in SAFE_METHODS or _open_to_all(self.view)) and not _for_accounts(self.view):
            return []
        auth: list[dict[str, list[str]]] = super().get_auth()
        return auth

    def _insert_field_validators(self, field: Any, schema: dict[str, Any]) -> None:
        """A blank-allowed string with a pattern becomes ``oneOf: [pattern, empty]``, which "" satisfies twice (so a
        validator refuses it); the wiki's patterns admit "" themselves where it is allowed, so the pattern alone stays."""
        super()._insert_field_validators(field, schema)  # type: ignore[no-untyped-call]  # untyped in drf-spectacular
        alternatives = schema.get("oneOf")
        if isinstance(alternatives, list) and len(alternatives) == 2 and alternatives[1] == {"type": "string", "maxLength": 0}:
            inner = alternatives[0]
            if "format" not in inner and "minLength" not in inner and re.fullmatch(inner.get("pattern", "x"), ""):
                del schema["oneOf"]
                schema.update(inner)
            else:
                schema["anyOf"] = schema.pop("oneOf")
                # Left inside the patterned alternative, a default "" is one its own schema refuses (which
                # openapi-spec-validator rejects); "" means what leaving the field out means, so none is given, and
                # a generated client sends nothing for a field its caller left out.
                inner.pop("default", None)

    def _map_serializer(self, serializer: Any, direction: Literal["request", "response"], bypass_extensions: bool = False) -> dict[str, Any]:
        """A request body holds the fields the serializer writes and no other (any other is a 400 naming it)."""
        from wiki.api.serializers.json_types import JSONTypes

        schema: dict[str, Any] = super()._map_serializer(serializer, direction, bypass_extensions)  # type: ignore[no-untyped-call]  # untyped in drf-spectacular
        if direction == "request" and isinstance(force_instance(serializer), JSONTypes):  # type: ignore[no-untyped-call]
            schema["additionalProperties"] = False
        return schema

    def _map_basic_serializer(self, serializer: Any, direction: Literal["request", "response"]) -> dict[str, Any]:
        """An answer holds every field its serializer reads, null where it has no value: a field optional in a request
        (``required=False``, a default) is always there in the response, so a generated client types it as present.
        The component is described in the schema's language."""
        schema: dict[str, Any] = super()._map_basic_serializer(serializer, direction)  # type: ignore[no-untyped-call]  # untyped in drf-spectacular
        if schema.get("description"):
            # the serializer's docstring, a message of the catalogues as it stands, as an operation's description is
            schema["description"] = gettext(schema["description"])
        if direction == "response" and schema.get("properties"):
            written_only = {name for name, field in force_instance(serializer).fields.items() if field.write_only}  # type: ignore[no-untyped-call]
            schema["required"] = sorted({*schema.get("required", []), *(set(schema["properties"]) - written_only)})
        return schema

    def _get_response_bodies(self, direction: Literal["request", "response"] = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        extra: dict[str, OpenApiResponse] = {"429": _error("Too many requests.")}
        if self.method in ("POST", "PUT", "PATCH", "DELETE"):
            extra["400"] = _error(gettext("Invalid input; see errors."))
        if _for_accounts(self.view):
            extra["401"] = _error(NOT_LOGGED_IN)
            if self.method not in SAFE_METHODS:
                extra["403"] = _error(gettext("A logged-in session's change sent without its CSRF token."))
        elif self.method in ("POST", "PUT", "PATCH", "DELETE") and not _open_to_all(self.view):
            extra["401"] = _error(NOT_LOGGED_IN)
            extra["403"] = _error(gettext("Logged in without the permission (editors only)."))
        elif getattr(self.view, "authentication_classes", None):
            extra["401"] = _error(gettext("A wrong, expired or malformed `Authorization: Token <key>` (or `Bearer <key>`) header "
                                          "(reads need none)."))
        if self.method == "GET":
            extra["400"] = _error(gettext("Invalid query parameters (filters, ordering, page size, cursor)."))
            extra["304"] = OpenApiResponse(description=gettext("Not modified: the If-None-Match sent is still the answer's ETag."))
        if "{" in self.path:
            paged = self.method == "GET" and self._is_list_view() and getattr(self.view, "pagination_class", None) is not None
            extra["404"] = _error(gettext("No such object, or a page number past the last page (`not_found`, naming `page` "
                                          "in `errors` and `codes`).") if paged else gettext("No such object."))
        elif self.method == "GET" and self._is_list_view():
            extra["404"] = _error(gettext("No such page of results: a page number past the last page (`not_found`, naming "
                                          "`page` in `errors` and `codes`)."))
        for code, response in extra.items():
            if code not in responses:
                # an error is JSON whatever format was asked for (a BibTeX or GraphML renderer answers it as JSON),
                # at an address answering GraphML alone too
                responses[code] = self._get_response_for_code(  # type: ignore[no-untyped-call]  # untyped in drf-spectacular
                    response, code, media_types=["application/json"], direction=direction)
        return responses
