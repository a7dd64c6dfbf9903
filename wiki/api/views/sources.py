from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import status

from wiki.api.schema import DuplicateSerializer
from wiki.api.serializers.sources import SourceSerializer, SourceWriteSerializer
from wiki.api.views.writes import IF_MATCH, PRECONDITION_FAILED, ServiceCreateMixin, ServiceUpdateMixin, ServiceViewSet
from wiki.filters import SourceFilter
from wiki.models import Component, Source
from wiki.models.etags import Validator
from wiki.references.draft import SourceDraft
from wiki.services.sources import source_create, source_update

_DUPLICATE = {status.HTTP_409_CONFLICT: OpenApiResponse(DuplicateSerializer, description="The source exists already.")}


@extend_schema_view(
    list=extend_schema(summary="List sources with their classifications"),
    retrieve=extend_schema(summary="A source with its classifications"),
    create=extend_schema(summary="Add a source", request=SourceWriteSerializer, responses={201: SourceSerializer, **_DUPLICATE}),
    update=extend_schema(summary="Change a source", request=SourceWriteSerializer, parameters=[IF_MATCH],
                         responses={200: SourceSerializer, **_DUPLICATE, **PRECONDITION_FAILED}),
    partial_update=extend_schema(summary="Change some fields of a source", request=SourceWriteSerializer, parameters=[IF_MATCH],
                                 responses={200: SourceSerializer, **_DUPLICATE, **PRECONDITION_FAILED}),
)
class SourceViewSet(ServiceCreateMixin, ServiceUpdateMixin, ServiceViewSet):
    """Cited works by slug, each with its components and classifications. Duplicates (arXiv ID, DOI, title) answer 409."""

    lookup_field = "slug"
    lookup_value_regex = "[-a-zA-Z0-9_]+"
    filterset_class = SourceFilter
    serializer_class = SourceSerializer
    write_serializer_class = SourceWriteSerializer
    ordering_fields = ["short_name", "year", "title", "created_at", "updated_at"]
    ordering = ["short_name"]
    http_method_names = ["get", "post", "put", "patch", "head", "options"]

    def get_queryset(self) -> QuerySet[Source]:
        sources = Source.objects.with_classification().prefetch_related(
            Prefetch("components", queryset=Component.objects.order_by("name"))
        )
        return sources if self.action == "list" else sources.with_validator()

    def validator_of(self, instance: Source, data: Any = None) -> Validator:
        return instance.validator

    def list_validator(self, queryset: QuerySet[Source]) -> Validator:
        return queryset.validator()  # type: ignore[attr-defined,no-any-return]

    def service_create(self, data: dict[str, Any]) -> Source:
        return source_create(draft=SourceDraft(**data), user=self.request.user)

    def service_update(self, instance: Source, data: dict[str, Any]) -> Source:
        # With If-Match, the service refuses (412) a save made between the check and its lock.
        loaded_at = instance.updated_at if self.request.headers.get("If-Match", "").strip() else None
        return source_update(source=instance, fields=data, user=self.request.user, loaded_at=loaded_at)
