from __future__ import annotations

from django.db.models import Prefetch, QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import viewsets

from wiki.api.filters import ClassificationFilter, ContrastFilter, SourceFilter
from wiki.api.serializers.sources import ClassificationSerializer, ContrastSerializer, SourceSerializer
from wiki.models import Classification, Component, Contrast, Source


@extend_schema_view(
    list=extend_schema(summary="List sources with their classifications"),
    retrieve=extend_schema(summary="A source with its classifications"),
)
class SourceViewSet(viewsets.ReadOnlyModelViewSet):
    """Cited works by slug, each with its components and classifications."""

    serializer_class = SourceSerializer
    lookup_field = "slug"
    filterset_class = SourceFilter
    ordering_fields = ["short_name", "year", "title", "created_at", "updated_at"]
    ordering = ["short_name"]

    def get_queryset(self) -> QuerySet[Source]:
        return Source.objects.prefetch_related(
            Prefetch("classifications", queryset=Classification.objects.select_related("component").order_by("component__name")),
            Prefetch("components", queryset=Component.objects.order_by("name")),
        )


@extend_schema_view(
    list=extend_schema(summary="List classifications"),
    retrieve=extend_schema(summary="A classification"),
)
class ClassificationViewSet(viewsets.ReadOnlyModelViewSet):
    """Mechanism, rubric facts and verdict per work or component; ``rubric_verdict`` is derived, read-only."""

    serializer_class = ClassificationSerializer
    filterset_class = ClassificationFilter
    ordering_fields = ["updated_at", "verdict", "mechanism", "source__short_name"]
    ordering = ["source__short_name", "id"]

    def get_queryset(self) -> QuerySet[Classification]:
        return Classification.objects.select_related("source", "component", "set_by_user")


@extend_schema_view(
    list=extend_schema(summary="List contrasts between works"),
    retrieve=extend_schema(summary="A contrast"),
)
class ContrastViewSet(viewsets.ReadOnlyModelViewSet):
    """Two works (or components) set against each other on an axis, with the claim that says so."""

    serializer_class = ContrastSerializer
    filterset_class = ContrastFilter
    ordering_fields = ["created_at", "axis"]
    ordering = ["left__short_name", "right__short_name", "id"]

    def get_queryset(self) -> QuerySet[Contrast]:
        return Contrast.objects.select_related("left", "right", "left_component", "right_component")
