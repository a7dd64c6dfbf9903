from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from wiki.api.conditional import check_preconditions
from wiki.api.serializers.sources import ContrastSerializer, ContrastUpdateSerializer, ContrastWriteSerializer
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
from wiki.filters import ContrastFilter
from wiki.models import Contrast
from wiki.services.contrasts import contrast_create, contrast_delete, contrast_update


@extend_schema_view(
    list=extend_schema(summary=gettext_lazy("List contrasts between works")),
    retrieve=extend_schema(summary=gettext_lazy("A contrast")),
    create=extend_schema(summary=gettext_lazy("Set two works against each other"), request=ContrastWriteSerializer,
                         responses={201: ContrastSerializer, **EXISTS}),
    update=extend_schema(summary=gettext_lazy("Correct a contrast"), description=PUT_KEEPS, request=ContrastUpdateSerializer,
                         parameters=[IF_MATCH_REQUIRED], responses={200: saved_serializer(ContrastSerializer), **PRECONDITIONS}),
    partial_update=extend_schema(summary=gettext_lazy("Correct a contrast"), request=ContrastUpdateSerializer,
                                 parameters=[IF_MATCH_REQUIRED],
                                 responses={200: saved_serializer(ContrastSerializer), **PRECONDITIONS}),
    destroy=extend_schema(summary=gettext_lazy("Delete a contrast set up by mistake"), parameters=[IF_MATCH_REQUIRED],
                          responses={204: None, **PRECONDITIONS}),
)
class ContrastViewSet(ServiceCreateMixin, ServiceUpdateMixin, ServiceViewSet):
    """Two works (or components) set against each other on an axis, with the claim that says so."""

    serializer_class = ContrastSerializer
    write_serializer_class = ContrastWriteSerializer
    filterset_class = ContrastFilter
    ordering_fields = ["created_at", "axis"]
    ordering = ["left__short_name", "right__short_name", "id"]
    http_method_names = ["get", "post", "put", "patch", "delete", "head", "options"]

    def get_queryset(self) -> QuerySet[Contrast]:
        return Contrast.objects.select_related("left", "right", "left_component", "right_component")

    def service_create(self, data: dict[str, Any]) -> Contrast:
        return contrast_create(**data, user=self.request.user)

    def get_write_serializer(self, *args: Any, **kwargs: Any) -> serializers.BaseSerializer[Any]:
        if self.action in ("update", "partial_update"):
            return ContrastUpdateSerializer(*args, context=self.get_serializer_context(), **kwargs)
        return super().get_write_serializer(*args, **kwargs)

    def service_update(self, instance: Contrast, data: dict[str, Any]) -> Contrast:
        return contrast_update(contrast=instance, fields=data, user=self.request.user, loaded_at=self.loaded_at)

    def destroy(self, request: Request, *args: object, **kwargs: object) -> Response:
        instance = self.get_live_object()
        named = check_preconditions(request, lambda: self.validator_of(instance), required=True)
        contrast_delete(contrast=instance, user=request.user, loaded_at=instance.updated_at if named else None)
        return Response(status=status.HTTP_204_NO_CONTENT)
