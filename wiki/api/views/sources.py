from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Prefetch, QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import serializers, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from wiki.api.caching import CachedReadsMixin
from wiki.api.errors import Conflict, from_django
from wiki.api.filters import SourceFilter
from wiki.api.schema import DuplicateSerializer
from wiki.api.serializers.sources import SourceSerializer, SourceWriteSerializer
from wiki.models import Component, Source
from wiki.references.draft import SourceDraft
from wiki.services.sources import SourceDuplicate, source_create, source_update

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
class SourceViewSet(CachedReadsMixin, viewsets.ModelViewSet):
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
