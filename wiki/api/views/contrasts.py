from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from wiki.api.caching import CachedReadsMixin
from wiki.api.errors import from_django
from wiki.api.filters import ContrastFilter
from wiki.api.serializers.sources import ContrastSerializer, ContrastWriteSerializer
from wiki.models import Contrast
from wiki.services.contrasts import contrast_create


@extend_schema_view(
    list=extend_schema(summary="List contrasts between works"),
    retrieve=extend_schema(summary="A contrast"),
    create=extend_schema(summary="Set two works against each other", request=ContrastWriteSerializer,
                         responses={201: ContrastSerializer}),
)
class ContrastViewSet(CachedReadsMixin, viewsets.ModelViewSet):
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
