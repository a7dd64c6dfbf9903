"""The one pattern of every API viewset: the serializer validates, one service call writes, the read serializer
answers. Whatever a service raises is turned into an API error in one place, :func:`wiki.api.errors.from_domain`.

Reads carry a strong ETag (and Last-Modified where the model knows it): ``If-None-Match`` answers 304, a write
whose ``If-Match`` names another version answers 412, and an edit sending no ``If-Match`` at all answers 428.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import cache
from typing import Any, TypeVar, cast

from django.db import models
from django.db.models import Manager, QuerySet
from django.http import Http404, HttpResponse, HttpResponseBase
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers, status, viewsets
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from wiki.api.conditional import (
    PreconditionFailed,
    check_preconditions,
    conditional_response,
    representation_etag,
    with_validator,
)
from wiki.api.errors import Gone
from wiki.api.filters import COMMON_PARAMETERS, reject_repeated_parameters, reject_unknown_parameters
from wiki.api.schema import ErrorSerializer
from wiki.api.views.base import WikiAPIView
from wiki.caching import readers
from wiki.caching.values import cached_value
from wiki.models.deletion import Deletable
from wiki.models.etags import Validator
from wiki.models.rules import is_control_free

T = TypeVar("T")
_ABSENT = object()

IF_MATCH = OpenApiParameter(
    "If-Match", str, OpenApiParameter.HEADER, required=False,
    description=gettext_lazy("The ETag you read: when the object changed since, nothing is written and the answer is 412."),
)
IF_MATCH_REQUIRED = OpenApiParameter(
    "If-Match", str, OpenApiParameter.HEADER, required=True,
    description=gettext_lazy("The ETag you read: when the object changed since, nothing is written and the answer is 412. "
                             "Without it the answer is 428; `*` overwrites whatever is saved now."),
)
PRECONDITION_FAILED: dict[int, OpenApiResponse] = {
    status.HTTP_412_PRECONDITION_FAILED: OpenApiResponse(
        ErrorSerializer, description=gettext_lazy("If-Match names another version, or If-None-Match the one saved (or is `*`).")),
}
# The edits whose If-Match is required: 412 for another version, 428 for none.
PRECONDITIONS: dict[int, OpenApiResponse] = {
    **PRECONDITION_FAILED,
    status.HTTP_428_PRECONDITION_REQUIRED: OpenApiResponse(
        ErrorSerializer, description=gettext_lazy("No If-Match (`precondition_required`): send the ETag you read, or `*`.")),
}
# A write whose input is fine but for an object that exists already (every error's code `exists`).
EXISTS: dict[int, OpenApiResponse] = {
    status.HTTP_409_CONFLICT: OpenApiResponse(ErrorSerializer, description=gettext_lazy("It exists already (`exists`): edit that one.")),
}
UNCHANGED_HELP = gettext_lazy("True when the save changed nothing, so nothing was written.")
# What PUT does with a field it is not sent, said in each PUT's description.
PUT_KEEPS = ("Sends the required fields and any others to change; a field left out keeps its value (as with PATCH, "
             "which needs none of them). Nothing is reset by leaving it out.")


@cache  # one class per serializer, as the schema has one component per name
def saved_serializer(serializer_class: type[serializers.ModelSerializer]) -> type[serializers.ModelSerializer]:  # type: ignore[type-arg]
    """The answer to an edit, for the schema: the object as read, and ``unchanged``."""
    name = serializer_class.__name__.removesuffix("Serializer")
    meta = type("Meta", (serializer_class.Meta,), {"fields": [*serializer_class.Meta.fields, "unchanged"]})
    return type(f"{name}SavedSerializer", (serializer_class,), {
        "unchanged": serializers.BooleanField(read_only=True, help_text=UNCHANGED_HELP), "Meta": meta,
        "__module__": serializer_class.__module__,
    })


class ServiceViewSet(WikiAPIView, viewsets.GenericViewSet):  # type: ignore[type-arg]
    """Reads (list, retrieve) with validators; with :class:`ServiceCreateMixin` and :class:`ServiceUpdateMixin`,
    subclasses name their serializers and services and writing is the same code for every resource."""

    write_serializer_class: type[serializers.BaseSerializer[Any]] | None = None  # defaults to serializer_class
    gone_message: str | Promise = gettext_lazy("“%(name)s” was deleted.")

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # No slug or id holds a control character, and PostgreSQL refuses a NUL in a query (a 500): as the HTML
        # addresses, such an address names nothing.
        if not all(is_control_free(str(value)) for value in self.kwargs.values()):
            raise NotFound()
        super().initial(request, *args, **kwargs)

    def gone(self) -> Gone | None:
        """410 when the address names a deleted (soft-deleted) object, else None."""
        model = self.get_queryset().model
        lookup = self.kwargs.get(self.lookup_url_kwarg or self.lookup_field)
        if lookup is None or not issubclass(model, Deletable):
            return None
        deleted = model.all_objects.deleted().filter(**{self.lookup_field: lookup}).first()  # type: ignore[attr-defined]
        return None if deleted is None else Gone(str(self.gone_message) % {"name": deleted})

    def live(self, find: Callable[[], T]) -> T:
        """What ``find`` finds, answering 410 rather than 404 when the address names a deleted object."""
        try:
            return find()
        except Http404:
            raise self.gone() or Http404 from None

    def get_live_object(self) -> Any:
        """:meth:`get_object`, answering 410 rather than 404 for a deleted object."""
        return self.live(self.get_object)

    def get_write_serializer(self, *args: Any, **kwargs: Any) -> serializers.BaseSerializer[Any]:
        return (self.write_serializer_class or self.get_serializer_class())(*args, context=self.get_serializer_context(), **kwargs)

    def read_serializer(self, instance: models.Model) -> serializers.BaseSerializer[Any]:
        return self.get_serializer_class()(instance, context=self.get_serializer_context())

    # -- the services, one call each ------------------------------------------------------------------------------
    def service_create(self, data: dict[str, Any]) -> models.Model:  # pragma: no cover - overridden
        raise NotImplementedError

    def service_update(self, instance: Any, data: dict[str, Any]) -> models.Model:  # pragma: no cover - overridden
        raise NotImplementedError

    # -- validators -------------------------------------------------------------------------------------------------
    def validator_of(self, instance: Any, data: Any = None) -> Validator:
        """The object's validator; by default a hash of its representation (``data`` when already serialised)."""
        return Validator(etag=representation_etag(self.read_serializer(instance).data if data is None else data),
                         last_modified=None)

    def list_validator(self, queryset: QuerySet[Any]) -> Validator | None:
        """A list's validator computed before serialising it, or None to hash the body instead."""
        return None

    # -- the actions ------------------------------------------------------------------------------------------------
    def retrieve(self, request: Request, *args: object, **kwargs: object) -> HttpResponseBase:
        # As on a list: a parameter no endpoint reads (a filter sent to an object's address) is a 400; the paging
        # parameters every list reads are let through.
        reject_unknown_parameters(request, COMMON_PARAMETERS)
        reject_repeated_parameters(request)

        def build() -> Response:
            instance = self.get_object()
            data = self.read_serializer(instance).data
            return with_validator(Response(data), self.validator_of(instance, data))

        return self._cached_read(request, "retrieve", build)

    def list(self, request: Request, *args: object, **kwargs: object) -> HttpResponseBase:
        def build() -> Response:
            queryset = self.filter_queryset(self.get_queryset())
            validator = self.list_validator(queryset)
            page = self.paginate_queryset(queryset)
            if page is None:
                response = Response(self.get_serializer(queryset, many=True).data)
            else:
                response = self.get_paginated_response(self.get_serializer(page, many=True).data)
            return response if validator is None else with_validator(response, validator)

        return self._cached_read(request, "list", build)

    def _cached_read(self, request: Request, action: str, build: Callable[[], Response]) -> HttpResponseBase:
        """The answer computed once per content version (after authentication and throttling), with its validators;
        a client that holds this version then gets 304. JSON is kept rendered: a read serialises nothing."""

        def respond() -> tuple[int, object, dict[str, str]]:
            response = build()
            return response.status_code, response.data, {h: response[h] for h in ("ETag", "Last-Modified") if response.has_header(h)}

        renderer = request.accepted_renderer
        media_type = request.accepted_media_type
        # Shared by every reader, but an answer that names its reader (``?assigned=me``), kept for that reader alone.
        where = (type(self).__name__, request.build_absolute_uri(), readers.own_copy(request._request))
        if getattr(renderer, "format", None) != "json":
            # The browsable API draws forms for its reader: only the data is shared. The data itself may depend on
            # the format asked for (an export is BibTeX or CSL-JSON), so the format is part of the key.
            status_code, data, headers = cached_value(request._request, f"api-{action}", *where, media_type, build=respond)
            if status_code == status.HTTP_200_OK and headers:
                return conditional_response(request, headers, lambda: Response(data))
            return Response(data, status=status_code, headers=headers)

        def rendered() -> tuple[int, bytes, dict[str, str]]:
            status_code, data, headers = respond()
            # JSON renders to bytes.
            return status_code, cast(bytes, renderer.render(data, media_type, self.get_renderer_context())), headers

        status_code, content, headers = cached_value(request._request, f"api-{action}-json", *where, media_type,
                                                     build=rendered)
        content_type = f"{renderer.media_type}; charset={renderer.charset}" if renderer.charset else renderer.media_type

        def stored() -> HttpResponse:
            return HttpResponse(content, status=status_code, content_type=content_type, headers=headers)

        return conditional_response(request, headers, stored) if status_code == status.HTTP_200_OK and headers else stored()

    def answer(self, saved: models.Model, *, status: int = status.HTTP_200_OK) -> Response:
        """The saved object read again as every reader sees it (complete, whatever was sent), with its validator."""
        instance = self.get_queryset().get(pk=saved.pk)
        data = self.read_serializer(instance).data
        return with_validator(Response(data, status=status), self.validator_of(instance, data))


class ServiceCreateMixin:
    """POST: the write serializer validates, ``service_create`` writes, the object is answered as read (201), its
    address in ``Location``."""

    def create(self: Any, request: Request, *args: object, **kwargs: object) -> Response:
        serializer = self.get_write_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        saved = self.service_create(dict(serializer.validated_data))
        response: Response = self.answer(saved, status=status.HTTP_201_CREATED)
        # the new object's address, where a client reads and edits it
        lookup = getattr(saved, self.lookup_field)
        response["Location"] = self.reverse_action("detail", kwargs={self.lookup_url_kwarg or self.lookup_field: lookup})
        return response


class ServiceUpdateMixin:
    """PUT/PATCH: without If-Match the answer is 428 (``*`` overwrites), a stale one is refused (412), as is an
    If-Unmodified-Since before the object's Last-Modified when no If-Match is sent; the write serializer validates,
    ``service_update`` writes; the answer says whether anything changed (``unchanged``)."""

    # Pages say which revision an edit started from in the body too (``base_revision``): they ask for it themselves.
    if_match_required = True
    # The ``updated_at`` of the version If-Match named, for the service to compare under its row lock; None for `*`.
    loaded_at: datetime | None = None

    def update(self: Any, request: Request, *args: object, partial: bool = False, **kwargs: object) -> Response:
        instance = self.get_live_object()
        try:
            if check_preconditions(request, lambda: self.validator_of(instance), required=self.if_match_required):
                self.loaded_at = instance.updated_at
        except PreconditionFailed:
            # A retry of an edit that went through (its answer lost) names the version before it: what it asks is
            # saved already, so it is answered as done (RFC 9110 §13.1.1), as a page's retry from its old revision is.
            retried = self.get_write_serializer(instance, data=request.data, partial=partial)
            if not (retried.is_valid() and self.already_applied(instance, dict(retried.validated_data))):
                raise
            done: Response = self.answer(instance)
            done.data = {**done.data, "unchanged": True}
            return done
        serializer = self.get_write_serializer(instance, data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        saved = self.service_update(instance, dict(serializer.validated_data))
        response: Response = self.answer(saved)
        response.data = {**response.data, "unchanged": self.unchanged(instance, saved)}
        return response

    def already_applied(self, instance: Any, data: dict[str, Any]) -> bool:
        """Whether every field sent holds the value sent already (the objects a list names, in any order); a field
        the object has not (a component to add) or nothing sent at all is no change made."""
        if not data:
            return False
        for name, value in data.items():
            current = getattr(instance, name, _ABSENT)
            if isinstance(current, Manager):
                if {item.pk for item in current.all()} != {item.pk for item in value}:
                    return False
            elif current is _ABSENT or current != value:
                return False
        return True

    def unchanged(self, instance: Any, saved: Any) -> bool:
        """Whether the save wrote nothing: a service that changes nothing leaves ``updated_at`` as it was."""
        return bool(instance.updated_at == saved.updated_at)

    def partial_update(self: Any, request: Request, *args: object, **kwargs: object) -> Response:
        response: Response = self.update(request, *args, partial=True, **kwargs)
        return response
