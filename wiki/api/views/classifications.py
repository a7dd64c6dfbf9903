from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_view

from wiki.api.serializers.sources import ClassificationSerializer
from wiki.api.views.writes import (
    EXISTS,
    IF_MATCH_REQUIRED,
    PRECONDITIONS,
    PUT_KEEPS,
    ServiceCreateMixin,
    ServiceUpdateMixin,
    ServiceViewSet,
    saved_serializer,
)
from wiki.filters import ClassificationFilter
from wiki.models import Classification
from wiki.services.classifications import classification_save


@extend_schema_view(
    list=extend_schema(summary=gettext_lazy("List classifications")),
    retrieve=extend_schema(summary=gettext_lazy("A classification")),
    create=extend_schema(summary=gettext_lazy("Classify a work or one of its components"),
                         responses={201: ClassificationSerializer, **EXISTS}),
    update=extend_schema(summary=gettext_lazy("Change a classification"), description=PUT_KEEPS, parameters=[IF_MATCH_REQUIRED],
                         responses={200: saved_serializer(ClassificationSerializer), **PRECONDITIONS, **EXISTS}),
    partial_update=extend_schema(summary=gettext_lazy("Change some fields of a classification"), parameters=[IF_MATCH_REQUIRED],
                                 responses={200: saved_serializer(ClassificationSerializer), **PRECONDITIONS, **EXISTS}),
)
class ClassificationViewSet(ServiceCreateMixin, ServiceUpdateMixin, ServiceViewSet):
    """Mechanism, rubric facts and verdict per work or component. ``rubric_verdict`` is derived and read-only;
    a verdict that departs from it needs a rationale. Every change is kept in the classification's history."""

    serializer_class = ClassificationSerializer
    filterset_class = ClassificationFilter
    ordering_fields = ["updated_at", "verdict", "mechanism", "source__short_name"]
    ordering = ["source__short_name", "id"]
    http_method_names = ["get", "post", "put", "patch", "head", "options"]

    def get_queryset(self) -> QuerySet[Classification]:
        return Classification.objects.select_related("source", "component", "set_by_user")

    def service_create(self, data: dict[str, Any]) -> Classification:
        source, component = data.pop("source"), data.pop("component", None)
        return classification_save(source=source, component=component, new_component=data.pop("new_component", ""),
                                   fields=data, user=self.request.user)

    def service_update(self, instance: Classification, data: dict[str, Any]) -> Classification:
        # A classification stays with its work and component (the serializer refuses another).
        data.pop("source", None)
        data.pop("component", None)
        data.pop("new_component", None)
        return classification_save(source=instance.source, component=instance.component, fields=data, user=self.request.user,
                                   classification=instance, loaded_at=self.loaded_at)
