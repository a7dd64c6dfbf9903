from __future__ import annotations

from django.db.models import OuterRef, QuerySet, Subquery
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from wiki.api.caching import CachedReadsMixin
from wiki.api.errors import Conflict
from wiki.api.filters import PageFilter
from wiki.api.schema import EditConflictSerializer
from wiki.api.serializers.claims import ClaimReportSerializer
from wiki.api.serializers.pages import (
    BacklinkSerializer,
    PageDetailSerializer,
    PageListSerializer,
    PageSavedSerializer,
    PageWriteSerializer,
    RevisionDetailSerializer,
    RevisionSerializer,
)
from wiki.markdown import MarkdownTooComplex
from wiki.models import Page, Revision, WikiLink
from wiki.services.page_claims import claim_report_for
from wiki.services.pages import EditConflict, UnknownBaseRevision, page_save_revision

_WRITE_RESPONSES = {
    status.HTTP_409_CONFLICT: OpenApiResponse(EditConflictSerializer, description="Someone saved the page after base_revision (or, on create, created it)."),
}


@extend_schema_view(
    list=extend_schema(summary="List pages"),
    retrieve=extend_schema(summary="A page with its rendered HTML and backlinks"),
    create=extend_schema(summary="Create a page (first revision)", request=PageWriteSerializer,
                         responses={201: PageSavedSerializer, **_WRITE_RESPONSES}),
    update=extend_schema(summary="Save a new revision; claim_changes says what it did to the page's claims",
                         request=PageWriteSerializer, responses={200: PageSavedSerializer, **_WRITE_RESPONSES}),
    partial_update=extend_schema(summary="Save a new revision from the fields sent", request=PageWriteSerializer,
                                 responses={200: PageSavedSerializer, **_WRITE_RESPONSES}),
)
class PageViewSet(CachedReadsMixin, viewsets.ModelViewSet):
    """Wiki pages by slug. Every save is a new revision; claims are re-extracted from the text."""

    lookup_field = "slug"
    lookup_value_regex = "[^/]+"
    filterset_class = PageFilter
    ordering_fields = ["title", "slug", "updated_at", "created_at"]
    ordering = ["title"]
    http_method_names = ["get", "post", "put", "patch", "head", "options"]

    def get_queryset(self) -> QuerySet[Page]:
        if self.action == "list":
            return Page.objects.for_listing()
        latest = Revision.objects.filter(page=OuterRef("pk")).order_by("-number").values("number")[:1]
        return Page.objects.annotate(current_revision=Subquery(latest))

    def get_serializer_class(self) -> type:
        if self.action == "list":
            return PageListSerializer
        if self.action in ("create", "update", "partial_update"):
            return PageWriteSerializer
        return PageDetailSerializer

    def _save_revision(self, request: Request, *, page: Page | None, partial: bool) -> dict[str, object]:
        serializer = PageWriteSerializer(data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if page is not None and data.get("base_revision") is None:
            raise _validation("base_revision", "Send the revision number you started from (the page's `revision`).", "required")

        def value(name: str) -> str:
            return data[name] if name in data else (getattr(page, name) if page is not None else "")

        content = {name: value(name) for name in ("title", "summary", "body")}
        try:
            revision = page_save_revision(
                slug=page.slug if page is not None else data.get("slug") or "", user=request.user,
                comment=data.get("comment", ""),
                # Creating says "from nothing": a page someone created meanwhile is then a conflict, not revision 2.
                base_revision=data["base_revision"] if page is not None else 0, **content,
            )
        except UnknownBaseRevision as error:
            raise _validation("base_revision", f"The page has no revision {error.base_number}; its latest is "
                              f"{error.current.number}.", "invalid") from None
        except EditConflict as conflict:
            theirs = conflict.current
            raise Conflict(
                f"The page was saved as revision {theirs.number} after revision {conflict.base_number}, which you edited.",
                code="edit_conflict",
                extra={
                    "base_revision": conflict.base_number,
                    "current_revision": theirs.number,
                    "yours": content,
                    "theirs": {"title": theirs.title, "summary": theirs.summary, "body": theirs.body},
                },
            ) from None
        except MarkdownTooComplex as error:
            raise _validation("body", str(error), "too_complex") from None
        saved = self.get_queryset().get(pk=revision.page_id)
        return {**PageDetailSerializer(saved).data, "claim_changes": ClaimReportSerializer(claim_report_for(revision)).data}

    def create(self, request: Request, *args: object, **kwargs: object) -> Response:
        return Response(self._save_revision(request, page=None, partial=False), status=status.HTTP_201_CREATED)

    def update(self, request: Request, *args: object, **kwargs: object) -> Response:
        return Response(self._save_revision(request, page=self.get_object(), partial=bool(kwargs.get("partial"))))

    @extend_schema(summary="Revisions of a page, newest first", responses=RevisionSerializer(many=True), filters=False)
    @action(detail=True, methods=["get"], filterset_class=None)
    def revisions(self, request: Request, slug: str) -> Response:
        page = get_object_or_404(Page.objects.only("id"), slug=slug)
        revisions = Revision.objects.filter(page=page).select_related("author").defer("body", "summary").order_by("-number")
        return self.get_paginated_response(RevisionSerializer(self.paginate_queryset(revisions), many=True).data)

    @extend_schema(summary="One revision of a page, with its text", responses=RevisionDetailSerializer, filters=False)
    @action(detail=True, methods=["get"], url_path=r"revisions/(?P<number>[0-9]+)", filterset_class=None)
    def revision(self, request: Request, slug: str, number: str) -> Response:
        revision = get_object_or_404(Revision.objects.select_related("author"), page__slug=slug, number=int(number))
        return Response(RevisionDetailSerializer(revision).data)

    @extend_schema(summary="Pages linking here", responses=BacklinkSerializer(many=True), filters=False)
    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def backlinks(self, request: Request, slug: str) -> Response:
        get_object_or_404(Page.objects.only("id"), slug=slug)
        return Response(BacklinkSerializer(WikiLink.objects.backlinks_to(slug), many=True).data)


def _validation(field: str, message: str, code: str) -> ValidationError:
    return ValidationError({field: [message]}, code=code)
