from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Prefetch, QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import serializers, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from wiki.api.errors import Conflict, from_django
from wiki.api.filters import ClassificationFilter, ContrastFilter, SourceFilter
from wiki.api.schema import DuplicateSerializer
from wiki.api.serializers.sources import (
    ClassificationSerializer,
    ContrastSerializer,
    ContrastWriteSerializer,
    SourceSerializer,
    SourceWriteSerializer,
)
from wiki.api.views.writes import ServiceWriteMixin
from wiki.models import Classification, Component, Contrast, Source
from wiki.services.classifications import classification_save
from wiki.services.contrasts import contrast_create
from wiki.services.sources_import import SourceDraft, SourceDuplicate, source_create, source_update

_DUPLICATE = {status.HTTP_409_CONFLICT: OpenApiResponse(DuplicateSerializer, description="The source exists already.")}


def _duplicate(error: SourceDuplicate) -> Conflict:
    return Conflict(f"This source exists already ({error.reason}): {error.source.short_name}.", code="duplicate",
                    extra={"existing": error.source.slug})


@extend_schema_view(
    list=extend_schema(summary="List sources with their classifications"),
    retrieve=extend_schema(summary="A source with its classifications"),
    create=extend_schema(summary="Add a source", request=SourceWriteSerializer, responses={201: SourceSerializer, **_DUPLICATE}),
    update=extend_schema(summary="Change a source", request=SourceWriteSerializer, responses={200: SourceSerializer, **_DUPLICATE}),
    partial_update=extend_schema(summary="Change some fields of a source", request=SourceWriteSerializer,
                                 responses={200: SourceSerializer, **_DUPLICATE}),
)
class SourceViewSet(viewsets.ModelViewSet):
    """Cited works by slug, each with its components and classifications. Duplicates (arXiv ID, DOI, title) answer 409."""

    lookup_field = "slug"
    lookup_value_regex = "[-a-zA-Z0-9_]+"
    filterset_class = SourceFilter
    ordering_fields = ["short_name", "year", "title", "created_at", "updated_at"]
    ordering = ["short_name"]
    http_method_names = ["get", "post", "put", "patch", "head", "options"]

    def get_queryset(self) -> QuerySet[Source]:
        return Source.objects.with_classification().prefetch_related(Prefetch("components", queryset=Component.objects.order_by("name")))

    def get_serializer_class(self) -> type[serializers.Serializer]:
        return SourceWriteSerializer if self.action in ("create", "update", "partial_update") else SourceSerializer

    def _write(self, save: Callable[[], Source]) -> Response:
        try:
            source = save()
        except SourceDuplicate as error:
            raise _duplicate(error) from None
        except DjangoValidationError as error:
            raise from_django(error) from None
        return Response(SourceSerializer(self.get_queryset().get(pk=source.pk)).data)

    def create(self, request: Request, *args: object, **kwargs: object) -> Response:
        serializer = SourceWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        response = self._write(lambda: source_create(draft=SourceDraft(**serializer.validated_data), user=request.user))
        response.status_code = status.HTTP_201_CREATED
        return response

    def update(self, request: Request, *args: object, **kwargs: object) -> Response:
        source = self.get_object()
        serializer = SourceWriteSerializer(source, data=request.data, partial=bool(kwargs.get("partial")))
        serializer.is_valid(raise_exception=True)
        return self._write(lambda: source_update(source=source, fields=dict(serializer.validated_data), user=request.user))


@extend_schema_view(
    list=extend_schema(summary="List classifications"),
    retrieve=extend_schema(summary="A classification"),
    create=extend_schema(summary="Classify a work or one of its components"),
    update=extend_schema(summary="Change a classification"),
    partial_update=extend_schema(summary="Change some fields of a classification"),
)
class ClassificationViewSet(ServiceWriteMixin, viewsets.ModelViewSet):
    """Mechanism, rubric facts and verdict per work or component. ``rubric_verdict`` is derived and read-only;
    a verdict that departs from it needs a rationale. Every change is kept in the classification's history."""

    serializer_class = ClassificationSerializer
    filterset_class = ClassificationFilter
    ordering_fields = ["updated_at", "verdict", "mechanism", "source__short_name"]
    ordering = ["source__short_name", "id"]
    http_method_names = ["get", "post", "put", "patch", "head", "options"]

    def get_queryset(self) -> QuerySet[Classification]:
        return Classification.objects.select_related("source", "component", "set_by_user")

    def _save(self, serializer: serializers.Serializer, instance: Classification | None) -> None:
        data = dict(serializer.validated_data)
        source = data.pop("source", None) or instance.source  # type: ignore[union-attr]
        component = data.pop("component", instance.component if instance else None)
        try:
            saved = classification_save(source=source, component=component, fields=data, user=self.request.user,
                                        classification=instance)
        except DjangoValidationError as error:
            raise from_django(error) from None
        serializer.instance = self.get_queryset().get(pk=saved.pk)


@extend_schema_view(
    list=extend_schema(summary="List contrasts between works"),
    retrieve=extend_schema(summary="A contrast"),
    create=extend_schema(summary="Set two works against each other", request=ContrastWriteSerializer,
                         responses={201: ContrastSerializer}),
)
class ContrastViewSet(viewsets.ModelViewSet):
    """Two works (or components) set against each other on an axis, with the claim that says so."""

    serializer_class = ContrastSerializer
    filterset_class = ContrastFilter
    ordering_fields = ["created_at", "axis"]
    ordering = ["left__short_name", "right__short_name", "id"]
    http_method_names = ["get", "post", "head", "options"]

    def get_queryset(self) -> QuerySet[Contrast]:
        return Contrast.objects.select_related("left", "right", "left_component", "right_component")

    def create(self, request: Request, *args: object, **kwargs: object) -> Response:
        serializer = ContrastWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            contrast = contrast_create(**serializer.validated_data, user=request.user)
        except DjangoValidationError as error:
            raise from_django(error) from None
        data = ContrastSerializer(self.get_queryset().get(pk=contrast.pk)).data
        return Response(data, status=status.HTTP_201_CREATED)
