from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, viewsets

from wiki.api.errors import from_django
from wiki.api.filters import ClaimFilter
from wiki.api.serializers.claims import ClaimSerializer
from wiki.models import Claim
from wiki.services.claims import CitationInput, claim_update

# The page text columns, which claim and question responses never show.
PAGE_TEXT = ("page__body", "page__rendered_html", "page__toc", "page__summary")


@extend_schema_view(
    list=extend_schema(summary="List claims with their citations"),
    retrieve=extend_schema(summary="A claim with its citations and locators"),
    partial_update=extend_schema(summary="Set a claim's status (verified, needs verification, disputed)"),
)
class ClaimViewSet(viewsets.ModelViewSet):
    """Statements on pages, by id, with citations (source + locator). Text and citations come from the page's
    Markdown (edit the page to change them); only the status is set here."""

    serializer_class = ClaimSerializer
    filterset_class = ClaimFilter
    ordering_fields = ["id", "position", "status", "updated_at", "created_at"]
    ordering = ["page__title", "position", "id"]
    http_method_names = ["get", "patch", "head", "options"]

    def get_queryset(self) -> QuerySet[Claim]:
        return Claim.objects.with_citations().defer(*PAGE_TEXT)

    def perform_update(self, serializer: serializers.Serializer) -> None:
        claim: Claim = serializer.instance
        citations = [CitationInput(source=c.source, locator=c.locator, kind=c.kind) for c in claim.citations.all()]
        try:
            claim_update(claim=claim, status=serializer.validated_data.get("status", claim.status), citations=citations,
                         about=list(claim.about.all()), user=self.request.user)
        except DjangoValidationError as error:
            raise from_django(error) from None
        serializer.instance = self.get_queryset().get(pk=claim.pk)
