from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.http import HttpResponseBase
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request

from wiki.api.schema import QuestionDuplicateSerializer
from wiki.api.serializers.claims import QuestionSerializer
from wiki.api.views.claims import PAGE_TEXT
from wiki.api.views.writes import (
    IF_MATCH_REQUIRED,
    PRECONDITIONS,
    PUT_KEEPS,
    ServiceCreateMixin,
    ServiceUpdateMixin,
    ServiceViewSet,
    saved_serializer,
)
from wiki.filters import ASSIGNED_TO_ME, ASSIGNED_TO_NOBODY, UNRESOLVED, QuestionFilter
from wiki.models import Claim, OpenQuestion, QuestionStatus, Source
from wiki.models.questions import priority_order, status_order
from wiki.services.questions import question_create, question_update

# An edit is refused as adding the question would be: one question asked twice in the queue, unresolved.
_ASKED_ALREADY = {status.HTTP_409_CONFLICT: OpenApiResponse(QuestionDuplicateSerializer, description=gettext_lazy(
    "The edit would make the question ask what another unresolved one in the queue asks (title, text and page), as "
    "a new title or a reopening may (`duplicate`, naming that one): nothing is saved."))}


@extend_schema_view(
    list=extend_schema(summary=gettext_lazy("List open questions"), parameters=[
        OpenApiParameter("status", enum=[UNRESOLVED, *QuestionStatus.values], description=gettext_lazy(
            "One status, or `unresolved` for open and investigating; every status when left out.")),
        OpenApiParameter("assigned", enum=[ASSIGNED_TO_NOBODY, ASSIGNED_TO_ME], description=gettext_lazy(
            "`nobody`: the questions assigned to no one; `me`: those assigned to the client's own account (401 "
            "without credentials)."))]),
    retrieve=extend_schema(summary=gettext_lazy("An open question")),
    create=extend_schema(summary=gettext_lazy("Raise an open question"), responses={
        201: QuestionSerializer,
        status.HTTP_409_CONFLICT: OpenApiResponse(QuestionDuplicateSerializer, description=gettext_lazy(
            "The same question (title, text and page) is in the queue already, unresolved (`duplicate`)."))}),
    update=extend_schema(summary=gettext_lazy("Change an open question"), description=PUT_KEEPS, parameters=[IF_MATCH_REQUIRED],
                         responses={200: saved_serializer(QuestionSerializer), **PRECONDITIONS, **_ASKED_ALREADY}),
    partial_update=extend_schema(summary=gettext_lazy("Triage or resolve an open question"), parameters=[IF_MATCH_REQUIRED],
                                 responses={200: saved_serializer(QuestionSerializer), **PRECONDITIONS, **_ASKED_ALREADY}),
)
class QuestionViewSet(ServiceCreateMixin, ServiceUpdateMixin, ServiceViewSet):
    """Questions to verify, by id: status, priority, what would resolve them, linked claims and sources.
    An answered question needs the claim that answers it."""

    serializer_class = QuestionSerializer
    filterset_class = QuestionFilter
    ordering_fields = ["created_at", "updated_at", "priority", "status", "title"]
    ordering = ["-created_at", "-id"]
    # Ordered by what they mean, not by their names (which would put "low" between "high" and "normal").
    ordering_ranks = {"priority": priority_order, "status": status_order}
    ordering_notes = gettext_lazy("`priority` puts high first, then normal, then low (`-priority` low first); `status` "
                                  "open, investigating, answered, dropped. The queue's orders: `priority,created_at` (by "
                                  "priority, then oldest first), `-created_at` (newest first), `created_at` (oldest "
                                  "first), `-updated_at` (recently changed first).")
    http_method_names = ["get", "post", "put", "patch", "head", "options"]

    def list(self, request: Request, *args: object, **kwargs: object) -> HttpResponseBase:
        # The HTML queue offers "me" to logged-in readers only; asked for anonymously it needs credentials, not a
        # choice of another value.
        if request.query_params.get("assigned") == ASSIGNED_TO_ME and not request.user.is_authenticated:
            raise NotAuthenticated(gettext("Only a logged-in client has questions assigned to it: send your token, or "
                                           "leave assigned=me out."))
        return super().list(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[OpenQuestion]:
        return (
            OpenQuestion.objects.live().select_related("page", "assignee")
            .defer(*PAGE_TEXT)
            .prefetch_related(
                Prefetch("claims", queryset=Claim.objects.only("id")),
                Prefetch("sources", queryset=Source.objects.only("id", "slug")),
            )
        )

    def service_create(self, data: dict[str, Any]) -> OpenQuestion:
        claims, sources = data.pop("claims", ()), data.pop("sources", ())
        return question_create(fields=data, claims=claims, sources=sources, user=self.request.user)

    def service_update(self, instance: OpenQuestion, data: dict[str, Any]) -> OpenQuestion:
        # a PATCH that leaves out claims or sources keeps them
        claims, sources = data.pop("claims", None), data.pop("sources", None)
        return question_update(question=instance, fields=data, claims=claims, sources=sources, user=self.request.user,
                               loaded_at=self.loaded_at)
