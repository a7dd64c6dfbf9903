"""The consistency report's findings, open or dismissed; editors dismiss them with a reason and reopen them."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from wiki.api.conditional import precondition_on
from wiki.api.filters import PAGING, reject_unreadable_parameters
from wiki.api.pagination import NumberedPagination
from wiki.api.schema import ErrorSerializer
from wiki.api.serializers.findings import (
    FindingDismissalSerializer,
    FindingDismissRequestSerializer,
    FindingListParamsSerializer,
    FindingRefSerializer,
    FindingSerializer,
)
from wiki.api.views.base import WikiAPIView
from wiki.api.views.writes import PRECONDITION_FAILED
from wiki.models.findings import finding_etag
from wiki.reports.consistency import Finding, consistency_report_cached
from wiki.reports.reviewed import consistency_report_reviewed
from wiki.services.findings import finding_dismiss, finding_reopen

CONFLICT = {status.HTTP_409_CONFLICT: OpenApiResponse(ErrorSerializer, description=gettext_lazy("Dismissed already, or not dismissed."))}
# A finding has no address of its own: its state's ETag is the `etag` of its row in the list.
STATE_MATCH = OpenApiParameter(
    "If-Match", str, OpenApiParameter.HEADER, required=False,
    description=gettext_lazy("The finding's `etag` as the list gave it: when it was dismissed or reopened since, nothing is written "
                             "and the answer is 412."),
)


class EditorsReview(BasePermission):
    """Anyone reads the findings; dismissing and reopening take the permission to dismiss (editors)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated and request.user.has_perm("wiki.add_findingdismissal"))


class FindingListView(WikiAPIView):
    """Where the wiki may contradict itself, each finding with the editor's dismissal when it was dismissed."""

    permission_classes = [EditorsReview]
    pagination_class = NumberedPagination

    @extend_schema(summary=gettext_lazy("List consistency findings"), parameters=[FindingListParamsSerializer],
                   responses=FindingSerializer(many=True))
    def get(self, request: Request) -> Response:
        reject_unreadable_parameters(request, set(FindingListParamsSerializer().fields) | PAGING)
        params = FindingListParamsSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        kind = params.validated_data.get("kind")
        dismissed = params.validated_data.get("dismissed")
        rows: list[dict[str, Any]] = []
        for section in consistency_report_reviewed().sections:
            if kind and section.key != kind:
                continue
            if dismissed is not True:
                rows += [_row(finding, None) for finding in section.open]
            if dismissed is not False:
                rows += [_row(item.finding, item.dismissal) for item in section.dismissed]
        paginator = NumberedPagination()
        page = paginator.paginate_queryset(rows, request, view=self)
        return paginator.get_paginated_response(FindingSerializer(page, many=True).data)


def _row(finding: Finding, dismissal: Any) -> dict[str, Any]:
    return {"kind": finding.kind, "key": finding.key, "subject": finding.subject, "url": finding.url,
            "detail": finding.detail, "dismissal": dismissal,
            "etag": finding_etag(finding.kind, finding.key, None if dismissal is None else dismissal.pk)}


def _with_state(response: Response, kind: str, key: str, dismissal_id: int | None) -> Response:
    response["ETag"] = finding_etag(kind, key, dismissal_id)
    return response


class FindingDismissView(WikiAPIView):
    """Dismisses a finding with the reason it is not a mistake; it stays listed, as dismissed, and can be reopened."""

    permission_classes = [EditorsReview]

    @extend_schema(summary=gettext_lazy("Dismiss a consistency finding"), request=FindingDismissRequestSerializer,
                   parameters=[STATE_MATCH],
                   responses={201: FindingDismissalSerializer, **CONFLICT, **PRECONDITION_FAILED,
                              status.HTTP_404_NOT_FOUND: OpenApiResponse(
                       ErrorSerializer, description=gettext_lazy("No such finding in the report (`not_found`)."))})
    def post(self, request: Request) -> Response:
        params = FindingDismissRequestSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        data = params.validated_data
        finding = consistency_report_cached().find(data["kind"], data["key"])
        if finding is None:
            raise ValidationError({"key": [gettext("This finding is no longer in the report; nothing was dismissed.")]},
                                  code="not_found")
        dismissal = finding_dismiss(finding=finding, reason=data["reason"], user=request.user,
                                    precondition=precondition_on(request))
        return _with_state(Response(FindingDismissalSerializer(dismissal).data, status=status.HTTP_201_CREATED),
                           finding.kind, finding.key, dismissal.pk)


class FindingReopenView(WikiAPIView):
    """Puts a dismissed finding back among the open ones; the dismissal is kept, stamped with who reopened it."""

    permission_classes = [EditorsReview]

    @extend_schema(summary=gettext_lazy("Reopen a dismissed consistency finding"), request=FindingRefSerializer,
                   parameters=[STATE_MATCH],
                   responses={200: FindingDismissalSerializer, **CONFLICT, **PRECONDITION_FAILED})
    def post(self, request: Request) -> Response:
        params = FindingRefSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        kind, key = params.validated_data["kind"], params.validated_data["key"]
        dismissal = finding_reopen(kind=kind, key=key, user=request.user, precondition=precondition_on(request))
        return _with_state(Response(FindingDismissalSerializer(dismissal).data), kind, key, None)
