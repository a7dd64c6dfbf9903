from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, viewsets

from wiki.api.errors import from_django
from wiki.api.filters import ClassificationFilter
from wiki.api.serializers.sources import ClassificationSerializer
from wiki.api.views.writes import ServiceWriteMixin
from wiki.models import Classification
from wiki.services.classifications import classification_save


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
