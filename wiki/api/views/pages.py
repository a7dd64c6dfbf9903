from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from django.http import Http404, HttpResponseBase
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from wiki.api.conditional import PreconditionFailed, check_preconditions, with_validator
from wiki.api.errors import Conflict
from wiki.api.filters import (
    COMMON_PARAMETERS,
    PAGING,
    reject_repeated_parameters,
    reject_unknown_parameters,
    reject_unreadable_parameters,
)
from wiki.api.pagination import WikiPagination
from wiki.api.redirects import same_request_at
from wiki.api.schema import EditConflictSerializer, ErrorSerializer
from wiki.api.serializers.claims import ClaimReportSerializer
from wiki.api.serializers.pages import (
    BacklinkSerializer,
    CitationMatchSerializer,
    ForeignMarkupSerializer,
    PageDetailSerializer,
    PageEditSerializer,
    PageInfoSerializer,
    PageListSerializer,
    PageMoveSerializer,
    PageSavedSerializer,
    PageWriteSerializer,
    RevisionDetailSerializer,
    RevisionSerializer,
    WorkRefSerializer,
)
from wiki.api.views.writes import (
    IF_MATCH,
    PRECONDITION_FAILED,
    ServiceCreateMixin,
    ServiceUpdateMixin,
    ServiceViewSet,
)
from wiki.filters import PageFilter
from wiki.models import Page, PageRedirect, Revision, WikiLink
from wiki.models.etags import Validator
from wiki.reports.page_info import PageInfo, page_info
from wiki.services.page_claims import claim_report_for, claim_report_unchanged
from wiki.services.page_moves import page_move
from wiki.services.pages import EditConflict, PageSaved, page_save

_WRITE_RESPONSES: dict[int, OpenApiResponse] = {
    status.HTTP_409_CONFLICT: OpenApiResponse(EditConflictSerializer, description=gettext_lazy("Someone saved the page after base_revision (`edit_conflict`), or, on create, a page has the slug already (`exists`).")),
}
_UPDATE_CONFLICT: dict[int, OpenApiResponse] = {
    status.HTTP_409_CONFLICT: OpenApiResponse(EditConflictSerializer, description=gettext_lazy(
        "Someone saved the page after base_revision (`edit_conflict`), or the page at the address is not the one "
        "`page_id` names (`other_page`, with `page_slug`: where that page is now, null when it was deleted or is no "
        "longer in the wiki).")),
}
_MOVE_CONFLICT: dict[int, OpenApiResponse] = {
    status.HTTP_409_CONFLICT: OpenApiResponse(ErrorSerializer, description=gettext_lazy(
        "The address is another page's (`exists`: edit that one), or the page at the address is not the one `page_id` "
        "names (`other_page`, with `page_slug`: where that page is now, null when it was deleted or is no longer in the "
        "wiki).")),
}
_GONE: dict[int, OpenApiResponse] = {status.HTTP_410_GONE: OpenApiResponse(ErrorSerializer, description=gettext_lazy("The page was deleted."))}
_MOVED: dict[int, OpenApiResponse] = {
    status.HTTP_301_MOVED_PERMANENTLY: OpenApiResponse(description=gettext_lazy("The page was moved: `Location` is this read at its address now.")),
}
_MOVED_WRITE: dict[int, OpenApiResponse] = {status.HTTP_308_PERMANENT_REDIRECT: OpenApiResponse(
    description=gettext_lazy("The page was moved: send the same request (method, headers and body) to `Location`, its address now."))}
_UPDATE_RESPONSES = {**_UPDATE_CONFLICT, **PRECONDITION_FAILED, **_GONE, **_MOVED_WRITE}


@extend_schema_view(
    list=extend_schema(summary=gettext_lazy("List pages")),
    retrieve=extend_schema(summary=gettext_lazy("A page with its rendered HTML and backlinks"),
                           responses={200: PageDetailSerializer, **_MOVED, **_GONE}),
    create=extend_schema(summary=gettext_lazy("Create a page (first revision)"), request=PageWriteSerializer,
                         responses={201: PageSavedSerializer, **_WRITE_RESPONSES}),
    update=extend_schema(summary=gettext_lazy("Save a new revision; claim_changes says what it did to the page's claims"),
                         description="A save that changes nothing makes no revision: the answer has `unchanged` true.",
                         request=PageEditSerializer, parameters=[IF_MATCH], responses={200: PageSavedSerializer, **_UPDATE_RESPONSES}),
    partial_update=extend_schema(summary=gettext_lazy("Save a new revision from the fields sent"),
                                 description="A save that changes nothing makes no revision: the answer has `unchanged` true.",
                                 request=PageEditSerializer, parameters=[IF_MATCH], responses={200: PageSavedSerializer, **_UPDATE_RESPONSES}),
)
class PageViewSet(ServiceCreateMixin, ServiceUpdateMixin, ServiceViewSet):
    """Wiki pages by slug. Every save is a new revision; claims are re-extracted from the text.
    An edit names the revision it started from, as ``base_revision`` or as the ``If-Match`` ETag."""

    lookup_field = "slug"
    lookup_value_regex = "[^/]+"
    filterset_class = PageFilter
    ordering_fields = ["title", "slug", "updated_at", "created_at"]
    ordering = ["title"]
    http_method_names = ["get", "post", "put", "patch", "head", "options"]
    gone_message = gettext_lazy("The page “%(name)s” was deleted.")
    # An edit names its revision as base_revision or If-Match (checked in service_update).
    if_match_required = False

    def get_queryset(self) -> QuerySet[Page]:
        if self.action == "list":
            return Page.objects.for_listing()
        return Page.objects.with_validator()

    def get_serializer_class(self) -> type:
        return PageListSerializer if self.action == "list" else PageDetailSerializer

    def get_write_serializer(self, *args: Any, **kwargs: Any) -> Any:
        # An edit cannot move the page to another address: the slug is given when creating only.
        serializer_class = PageWriteSerializer if self.action == "create" else PageEditSerializer
        return serializer_class(*args, context=self.get_serializer_context(), **kwargs)

    def retrieve(self, request: Request, *args: object, **kwargs: object) -> HttpResponseBase:
        """The page; a deleted one answers 410, and the address a page had before it was moved 301 with its address now."""
        return self._or_moved(request, lambda: self.live(lambda: super(PageViewSet, self).retrieve(request, *args, **kwargs)))

    def update(self, request: Request, *args: object, partial: bool = False, **kwargs: object) -> HttpResponseBase:  # type: ignore[override]
        """The edit; sent to an address the page had before it was moved, a 308 to its address now, where a client
        repeats it as it was sent (a 301 would let it turn into a GET)."""
        return self._or_moved(request, lambda: super(PageViewSet, self).update(request, *args, partial=partial, **kwargs))

    def _or_moved(self, request: Request, read: Callable[[], HttpResponseBase]) -> HttpResponseBase:
        """What ``read`` answers; when no page is at the address asked for but one was moved from it, the same
        request (a read of revisions, backlinks, …, or an edit) at the page's address now, the query kept."""
        try:
            return read()
        except Http404:
            match = request.resolver_match
            now = PageRedirect.objects.page_slug_at(str(match.kwargs.get("slug", ""))) if match else None
            if now is None:
                raise
            return same_request_at(request, slug=now)

    def validator_of(self, instance: Page, data: Any = None) -> Validator:
        return instance.validator

    def list_validator(self, queryset: QuerySet[Page]) -> Validator:
        return queryset.validator()  # type: ignore[attr-defined,no-any-return]

    def service_create(self, data: dict[str, Any]) -> Page:
        # Creating says "from nothing": a page someone created meanwhile is then a conflict, not revision 2.
        self.saved: PageSaved = page_save(
            slug=data.get("slug") or "", title=data["title"], summary=data.get("summary", ""), body=data["body"],
            comment=data.get("comment", ""), user=self.request.user, base_revision=0, new_works=data.get("new_works", ()),
        )
        return self.saved.revision.page

    def service_update(self, instance: Page, data: dict[str, Any]) -> Page:
        base_revision = data.get("base_revision")
        if base_revision is None:
            # A matching If-Match (checked before) names the revision read; the service refuses a save since.
            # If-Match: * overwrites whatever is saved.
            if_match = self.request.headers.get("If-Match", "").strip()
            if not if_match:
                raise ValidationError({"base_revision": [gettext(
                    "Send the revision number you started from (the page's “revision”), or its ETag as If-Match.")]},
                    code="required")
            base_revision = None if if_match == "*" else instance.current_revision  # type: ignore[attr-defined]
        page_id = data.get("page_id")
        refuse_other_page(instance, page_id)
        content = {name: data.get(name, getattr(instance, name)) for name in ("title", "summary", "body")}
        try:
            # Naming the page read, the save goes to it even if it moves while this request runs.
            self.saved = page_save(slug=instance.slug, comment=data.get("comment", ""), user=self.request.user,
                                   base_revision=base_revision, new_works=data.get("new_works", ()),
                                   blanking_confirmed=data.get("confirm_blank", False), page_id=page_id, **content)
        except EditConflict:
            # The revision was named by If-Match, which someone else's save made stale while this request ran: as a
            # stale If-Match sent from the start, a 412 (a base_revision sent in the body stays a 409 with both versions).
            if data.get("base_revision") is None:
                raise PreconditionFailed() from None
            raise
        return self.saved.revision.page

    def already_applied(self, instance: Page, data: dict[str, Any]) -> bool:
        # A page's retry names its revision in base_revision, which the service answers as unchanged itself.
        return False

    def unchanged(self, instance: Page, saved: Page) -> bool:
        return self.saved.unchanged

    def answer(self, saved: Page, *, status: int = status.HTTP_200_OK) -> Response:  # type: ignore[override]
        """The page as read, with what the save did to its claims and how its citations resolved."""
        response = super().answer(saved, status=status)
        citations = self.saved.citations
        revision = self.saved.revision
        report = claim_report_unchanged(revision.page) if self.saved.unchanged else claim_report_for(revision)
        response.data = {
            **response.data,
            "unchanged": self.saved.unchanged,
            "claim_changes": ClaimReportSerializer(report).data,
            "citation_matches": CitationMatchSerializer(citations.matches, many=True, context=self.get_serializer_context()).data,
            "created_sources": WorkRefSerializer([m.work for m in citations.created], many=True,
                                                 context=self.get_serializer_context()).data,
            "foreign_markup": ForeignMarkupSerializer(self.saved.foreign, many=True).data,
        }
        return response

    @extend_schema(summary=gettext_lazy("Revisions of a page, newest first"), responses={200: RevisionSerializer(many=True), **_MOVED, **_GONE}, filters=False)
    @action(detail=True, methods=["get"], filterset_class=None)
    def revisions(self, request: Request, slug: str) -> HttpResponseBase:
        reject_unreadable_parameters(request, PAGING)
        if isinstance(self.paginator, WikiPagination):
            self.paginator.check_parameters(request)

        def read() -> Response:
            page = self._live_page(slug)
            revisions = Revision.objects.filter(page=page).select_related("author").defer("body", "summary").order_by("-number")
            return self.get_paginated_response(RevisionSerializer(self.paginate_queryset(revisions), many=True).data)

        return self._or_moved(request, read)

    @extend_schema(summary=gettext_lazy("One revision of a page, with its text"), responses={200: RevisionDetailSerializer, **_MOVED, **_GONE}, filters=False)
    @action(detail=True, methods=["get"], url_path=r"revisions/(?P<number>[0-9]+)", filterset_class=None)
    def revision(self, request: Request, slug: str, number: str) -> HttpResponseBase:
        reject_unknown_parameters(request, COMMON_PARAMETERS)
        reject_repeated_parameters(request)

        def read() -> Response:
            revision = self.live(lambda: get_object_or_404(Revision.objects.select_related("author"), page__slug=slug,
                                                           page__deleted_at__isnull=True, number=int(number)))
            return Response(RevisionDetailSerializer(revision).data)

        return self._or_moved(request, read)

    @extend_schema(summary=gettext_lazy("Pages linking here"), responses={200: BacklinkSerializer(many=True), **_MOVED, **_GONE}, filters=False)
    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def backlinks(self, request: Request, slug: str) -> HttpResponseBase:
        reject_unreadable_parameters(request, frozenset())

        def read() -> Response:
            self._live_page(slug)
            return Response(BacklinkSerializer(WikiLink.objects.backlinks_to(slug), many=True).data)

        return self._or_moved(request, read)

    @extend_schema(summary=gettext_lazy("A page's information: its names, history, watchers, links, claims and questions"),
                   responses={200: PageInfoSerializer, **_MOVED, **_GONE}, filters=False)
    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def info(self, request: Request, slug: str) -> HttpResponseBase:
        reject_unknown_parameters(request, COMMON_PARAMETERS)

        def found() -> PageInfo:
            info = page_info(slug)
            if info is None:
                raise Http404
            return info

        return self._or_moved(request, lambda: Response(PageInfoSerializer(self.live(found), context=self.get_serializer_context()).data))

    @extend_schema(summary=gettext_lazy("Move a page to another address"),
                   description="The former address and title, and the wiki links naming them, keep leading to the "
                               "page until a page is created there. A new `title` is saved as a revision; without a "
                               "`slug` the address is made from it. An address another page has answers 409 "
                               "(`exists`, as creating a page there); a reserved address, or neither address nor title "
                               "changed, answers 400.",
                   request=PageMoveSerializer, parameters=[IF_MATCH],
                   responses={200: PageDetailSerializer, **_MOVE_CONFLICT, **PRECONDITION_FAILED, **_GONE, **_MOVED_WRITE},
                   filters=False)
    @action(detail=True, methods=["post"], filterset_class=None)
    def move(self, request: Request, slug: str) -> HttpResponseBase:
        # sent to an address the page had before, a 308 to its address now, as an edit is
        return self._or_moved(request, lambda: self._move(request, slug))

    def _move(self, request: Request, slug: str) -> Response:
        page = self.live(lambda: get_object_or_404(Page.objects.only("id", "slug", "title", "updated_at"), slug=slug))
        # the page as read (its ETag and Last-Modified), only when the request names a version
        named = check_preconditions(request, lambda: Page.objects.with_validator().get(pk=page.pk).validator)
        serializer = PageMoveSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        values = dict(serializer.validated_data)
        refuse_other_page(page, values.pop("page_id", None))
        # the version If-Match named, which the service makes sure is still the saved one under its row lock
        moved = page_move(page=page, user=request.user, loaded_at=page.updated_at if named else None, **values)
        moved = self.get_queryset().get(pk=moved.pk)
        # with its new version, as an edit answers, for the next conditional write
        return with_validator(Response(PageDetailSerializer(moved, context=self.get_serializer_context()).data),
                              moved.validator)

    def _live_page(self, slug: str) -> Page:
        return self.live(lambda: get_object_or_404(Page.objects.only("id"), slug=slug))


def refuse_other_page(page: Page, page_id: int | None) -> None:
    """409 ``other_page`` when the write names (``page_id``) a page other than ``page``, the one at the address it was
    sent to: the page the client read was moved or deleted since, and another created at its address. The answer says
    where the page named is now (``page_slug``), null when it was deleted or is no longer in the wiki."""
    if page_id is None or page_id == page.pk:
        return
    now = Page.objects.filter(pk=page_id).values_list("slug", flat=True).first()
    if now is None:
        detail = gettext("The page at “%(here)s” is not the one page_id %(id)s names, which was deleted or is no "
                         "longer in the wiki: nothing was written.") % {"here": page.slug, "id": page_id}
    else:
        detail = gettext("The page at “%(here)s” is not the one page_id %(id)s names, which is now at “%(now)s”: "
                         "nothing was written. Send the write there.") % {"here": page.slug, "id": page_id, "now": now}
    raise Conflict(detail, code="other_page", extra={"page_slug": now})
