from __future__ import annotations

from django.db.models import Prefetch, QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import viewsets

from wiki.api.filters import ClaimFilter, QuestionFilter
from wiki.api.serializers.claims import ClaimSerializer, QuestionSerializer
from wiki.models import Citation, Claim, OpenQuestion, Source

_PAGE_TEXT = ("page__body", "page__rendered_html", "page__toc", "page__summary")


@extend_schema_view(
    list=extend_schema(summary="List claims with their citations"),
    retrieve=extend_schema(summary="A claim with its citations and locators"),
)
class ClaimViewSet(viewsets.ReadOnlyModelViewSet):
    """Statements on pages, by id, with citations (source + locator)."""

    serializer_class = ClaimSerializer
    filterset_class = ClaimFilter
    ordering_fields = ["id", "position", "status", "updated_at", "created_at"]
    ordering = ["page__title", "position", "id"]

    def get_queryset(self) -> QuerySet[Claim]:
        return (
            Claim.objects.select_related("page")
            .defer(*_PAGE_TEXT)
            .prefetch_related(
                Prefetch("citations", queryset=Citation.objects.select_related("source")
                         .only("id", "claim_id", "locator", "kind", "position", "source__slug", "source__short_name")
                         .order_by("position")),
                Prefetch("about", queryset=Source.objects.only("id", "slug")),
            )
        )


@extend_schema_view(
    list=extend_schema(summary="List open questions"),
    retrieve=extend_schema(summary="An open question"),
)
class QuestionViewSet(viewsets.ReadOnlyModelViewSet):
    """Questions to verify, by id: status, priority, what would resolve them, linked claims and sources."""

    serializer_class = QuestionSerializer
    filterset_class = QuestionFilter
    ordering_fields = ["created_at", "updated_at", "priority", "status", "title"]
    ordering = ["-created_at", "-id"]

    def get_queryset(self) -> QuerySet[OpenQuestion]:
        return (
            OpenQuestion.objects.select_related("page", "assignee")
            .defer(*_PAGE_TEXT)
            .prefetch_related(
                Prefetch("claims", queryset=Claim.objects.only("id")),
                Prefetch("sources", queryset=Source.objects.only("id", "slug")),
            )
        )
