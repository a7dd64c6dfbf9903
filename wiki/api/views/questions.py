from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Prefetch, QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, viewsets

from wiki.api.errors import from_django
from wiki.api.filters import QuestionFilter
from wiki.api.serializers.claims import QuestionSerializer
from wiki.api.views.claims import PAGE_TEXT
from wiki.api.views.writes import ServiceWriteMixin
from wiki.models import Claim, OpenQuestion, Source
from wiki.services.questions import question_create, question_update


@extend_schema_view(
    list=extend_schema(summary="List open questions"),
    retrieve=extend_schema(summary="An open question"),
    create=extend_schema(summary="Raise an open question"),
    update=extend_schema(summary="Change an open question"),
    partial_update=extend_schema(summary="Triage or resolve an open question"),
)
class QuestionViewSet(ServiceWriteMixin, viewsets.ModelViewSet):
    """Questions to verify, by id: status, priority, what would resolve them, linked claims and sources.
    An answered question needs the claim that answers it."""

    serializer_class = QuestionSerializer
    filterset_class = QuestionFilter
    ordering_fields = ["created_at", "updated_at", "priority", "status", "title"]
    ordering = ["-created_at", "-id"]
    http_method_names = ["get", "post", "put", "patch", "head", "options"]

    def get_queryset(self) -> QuerySet[OpenQuestion]:
        return (
            OpenQuestion.objects.select_related("page", "assignee")
            .defer(*PAGE_TEXT)
            .prefetch_related(
                Prefetch("claims", queryset=Claim.objects.only("id")),
                Prefetch("sources", queryset=Source.objects.only("id", "slug")),
            )
        )

    def _save(self, serializer: serializers.Serializer, question: OpenQuestion | None) -> None:
        fields = dict(serializer.validated_data)
        claims = fields.pop("claims", None)
        sources = fields.pop("sources", None)
        try:
            if question is None:
                saved = question_create(fields=fields, claims=claims or (), sources=sources or (), user=self.request.user)
            else:
                saved = question_update(
                    question=question, fields=fields, user=self.request.user,
                    claims=list(question.claims.all()) if claims is None else claims,
                    sources=list(question.sources.all()) if sources is None else sources,
                )
        except DjangoValidationError as error:
            raise from_django(error) from None
        serializer.instance = self.get_queryset().get(pk=saved.pk)
