from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_view

from wiki.api.serializers.sources import ContrastSerializer, ContrastWriteSerializer
from wiki.api.views.writes import EXISTS, ServiceCreateMixin, ServiceViewSet
from wiki.filters import ContrastFilter
from wiki.models import Contrast
from wiki.services.contrasts import contrast_create


@extend_schema_view(
    list=extend_schema(summary=gettext_lazy("List contrasts between works")),
    retrieve=extend_schema(summary=gettext_lazy("A contrast")),
    create=extend_schema(summary=gettext_lazy("Set two works against each other"), request=ContrastWriteSerializer,
                         responses={201: ContrastSerializer, **EXISTS}),
)
class ContrastViewSet(ServiceCreateMixin, ServiceViewSet):
    """Two works (or components) set against each other on an axis, with the claim that says so."""

    serializer_class = ContrastSerializer
    write_serializer_class = ContrastWriteSerializer
    filterset_class = ContrastFilter
    ordering_fields = ["created_at", "axis"]
    ordering = ["left__short_name", "right__short_name", "id"]
    http_method_names = ["get", "post", "head", "options"]

    def get_queryset(self) -> QuerySet[Contrast]:
        return Contrast.objects.select_related("left", "right", "left_component", "right_component")

    def service_create(self, data: dict[str, Any]) -> Contrast:
        return contrast_create(**data, user=self.request.user)
