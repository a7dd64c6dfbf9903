from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from wiki.api.conditional import check_preconditions
from wiki.api.filters import reject_unreadable_parameters
from wiki.api.redirects import same_request_at
from wiki.api.schema import ErrorSerializer
from wiki.api.serializers.claims import (
    ClaimReattachSerializer,
    ClaimRetireSerializer,
    ClaimRevisionSerializer,
    ClaimSerializer,
)
from wiki.api.views.writes import (
    IF_MATCH,
    IF_MATCH_REQUIRED,
    PRECONDITION_FAILED,
    PRECONDITIONS,
    ServiceUpdateMixin,
    ServiceViewSet,
    saved_serializer,
)
from wiki.filters import ClaimFilter
from wiki.models import Claim, ClaimRevision
from wiki.models.claims import PAGE_ORDER
from wiki.services.claims import claim_reattach, claim_retire, claim_set_status

# The page text columns, which claim and question responses never show.
PAGE_TEXT = ("page__body", "page__rendered_html", "page__toc", "page__summary")
# A claim that gave its sentence to a re-attached one lives on as that claim (ClaimViewSet.handle_exception): every
# read of it is a 301 there, every write a 308.
_REPLACED_READ = {status.HTTP_301_MOVED_PERMANENTLY: OpenApiResponse(
    description=gettext_lazy("The claim gave its sentence to a re-attached one: `Location` is this read of that claim."))}
_REPLACED_WRITE = {status.HTTP_308_PERMANENT_REDIRECT: OpenApiResponse(
    description=gettext_lazy("The claim gave its sentence to a re-attached one: send the same request to `Location`, that claim."))}


@extend_schema_view(
    list=extend_schema(summary=gettext_lazy("List claims with their citations")),
    retrieve=extend_schema(summary=gettext_lazy("A claim with its citations and locators"),
                           responses={200: ClaimSerializer, **_REPLACED_READ}),
    partial_update=extend_schema(summary=gettext_lazy("Set a claim's status (verified, needs verification, disputed)"),
                                 parameters=[IF_MATCH_REQUIRED],
                                 responses={200: saved_serializer(ClaimSerializer), **PRECONDITIONS, **_REPLACED_WRITE}),
)
class ClaimViewSet(ServiceUpdateMixin, ServiceViewSet):
    """Statements on pages, by id, with citations (source + locator). Text and citations come from the page's
    Markdown (edit the page to change them); the status is set here, and an orphaned claim re-attached or retired."""

    # Ids are numbers: anything else is a 404 from the router, never a lookup that fails in the database.
    lookup_value_regex = "[0-9]+"
    serializer_class = ClaimSerializer
    filterset_class = ClaimFilter
    ordering_fields = ["id", "position", "status", "updated_at", "created_at"]
    ordering = list(PAGE_ORDER)
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_queryset(self) -> QuerySet[Claim]:
        return Claim.objects.on_live_pages().with_citations().defer(*PAGE_TEXT)

    def handle_exception(self, exc: Exception) -> Response:
        """A claim that gave its sentence to a re-attached one lives on as that claim, as its HTML page does: a read
        of it (or of its history) is a 301 to the same read of that claim, a write a 308, which a client repeats as
        it was sent."""
        pk = str(self.kwargs.get("pk", ""))
        if isinstance(exc, Http404) and pk.isdigit():
            replaced = ClaimRevision.objects.replacing(int(pk)).first()
            if replaced is not None:
                return same_request_at(self.request, pk=replaced.claim_id)  # type: ignore[return-value]
        return super().handle_exception(exc)

    @extend_schema(summary=gettext_lazy("A claim's history across page revisions, oldest first"),
                   responses={200: ClaimRevisionSerializer(many=True), **_REPLACED_READ}, filters=False)
    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def history(self, request: Request, pk: str) -> Response:
        reject_unreadable_parameters(request, frozenset())
        # as the claim itself: a claim of a deleted page is not found
        claim = get_object_or_404(Claim.objects.on_live_pages().only("id"), pk=pk)
        return Response(ClaimRevisionSerializer(ClaimRevision.objects.history().filter(claim=claim), many=True).data)

    @extend_schema(summary=gettext_lazy("Re-attach an orphaned claim to a sentence now on a page (this one or another)"),
                   request=ClaimReattachSerializer, parameters=[IF_MATCH],
                   responses={200: ClaimSerializer, **PRECONDITION_FAILED, **_REPLACED_WRITE}, filters=False)
    @action(detail=True, methods=["post"], filterset_class=None)
    def reattach(self, request: Request, pk: str) -> Response:
        claim = self.get_object()
        named = check_preconditions(request, lambda: self.validator_of(claim))
        serializer = ClaimReattachSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        claim_reattach(claim=claim, sentence=serializer.validated_data["sentence"], user=request.user,
                       loaded_at=claim.updated_at if named else None)
        return self.answer(claim)

    @extend_schema(summary=gettext_lazy("Retire an orphaned claim, saying why"), request=ClaimRetireSerializer, filters=False,
                   parameters=[IF_MATCH], responses={200: ClaimSerializer, **PRECONDITION_FAILED, **_REPLACED_WRITE,
                                                     status.HTTP_409_CONFLICT: OpenApiResponse(ErrorSerializer, description=gettext_lazy(
                                                         "The claim is retired already (`already_retired`: when, by whom, why)."))})
    @action(detail=True, methods=["post"], filterset_class=None)
    def retire(self, request: Request, pk: str) -> Response:
        claim = self.get_object()
        named = check_preconditions(request, lambda: self.validator_of(claim))
        serializer = ClaimRetireSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        claim_retire(claim=claim, reason=serializer.validated_data["reason"], user=request.user,
                     loaded_at=claim.updated_at if named else None)
        return self.answer(claim)

    def service_update(self, instance: Claim, data: dict[str, Any]) -> Claim:
        return claim_set_status(claim=instance, status=data.get("status", instance.status), user=self.request.user,
                                loaded_at=self.loaded_at)
