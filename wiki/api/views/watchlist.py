"""The logged-in client's watchlist: the changes to what it watches, and watching or unwatching a page, a work or an
open question."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, cast, overload

from django.db.models import Model
from django.http import Http404, HttpResponseBase
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext, gettext_lazy
from django_stubs_ext import StrOrPromise
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from wiki.api.conditional import check_preconditions, representation_etag, with_validator
from wiki.api.filters import COMMON_PARAMETERS, reject_unreadable_parameters
from wiki.api.pagination import WikiPagination
from wiki.api.redirects import same_request_at
from wiki.api.schema import ErrorSerializer
from wiki.api.serializers.watchlist import ChangeSerializer, WatchSerializer, WatchStateSerializer
from wiki.api.views.base import WikiAPIView
from wiki.api.views.changes import change_filter_parameters, read_change_filters
from wiki.api.views.writes import IF_MATCH, PRECONDITION_FAILED
from wiki.caching import watches as watch_state
from wiki.filters.changes import WatchlistFilter
from wiki.models import ChangeEvent, OpenQuestion, Page, PageRedirect, Source
from wiki.models.etags import Validator
from wiki.models.rules import is_control_free
from wiki.models.watches import Watchable, watch_kind
from wiki.roles import Account
from wiki.services.watches import watch_add, watch_remove

_ANONYMOUS = "Anonymous clients have no watchlist: this answers 401 without credentials."


def _account(request: Request) -> Account:
    return cast(Account, request.user)  # every view here is IsAuthenticated


def _private(response: Response) -> Response:
    # one account's own: no shared cache on the way keeps it
    patch_cache_control(response, private=True)
    return response


def _state(*, watching: bool) -> Response:
    return _private(Response(WatchStateSerializer({"watching": watching}).data))


class WatchlistView(WikiAPIView):
    """The recent changes to the pages, works and open questions you watch, newest first: a page's edits, moves,
    deletions and its claims' changes; a work's edits, classifications, contrasts and merges into it; a question's
    changes. Needs credentials."""

    permission_classes = [IsAuthenticated]
    pagination_class = WikiPagination

    @extend_schema(
        summary=gettext_lazy("Your watchlist"), description=_ANONYMOUS, responses=ChangeSerializer(many=True),
        parameters=change_filter_parameters(
            ("hidemine", gettext_lazy("True: without your own edits")),
            ("hideminor", gettext_lazy("True: without minor edits")),
            ("latest", gettext_lazy("True: only the latest change to each page, work, question or claim, among those kept"))),
    )
    def get(self, request: Request) -> Response:
        changes = read_change_filters(request, WatchlistFilter, ChangeEvent.objects.recent().watched_by(_account(request).pk))
        paginator = WikiPagination()
        page = paginator.paginate_queryset(changes, request, view=self)
        return _private(paginator.get_paginated_response(ChangeSerializer(page, many=True).data))


class _Elsewhere(Exception):
    """The item asked for is watched at another address now, ``slug`` (a page moved, a work merged into another)."""

    def __init__(self, slug: str) -> None:
        super().__init__(slug)
        self.slug = slug


class WatchView(WikiAPIView):
    """Whether you watch one item (GET), watching it (PUT) and unwatching it (DELETE); each answers whether you watch
    it now. A deleted page or work can still be read and unwatched, not watched anew."""

    permission_classes = [IsAuthenticated]
    model: type[Model]
    lookup: str

    def target(self, request: Request, key: Any, *, live: bool) -> Watchable:
        if not is_control_free(str(key)):
            # as the other addresses: no slug holds a control character, and PostgreSQL refuses a NUL in a query (a 500)
            raise Http404
        manager = "objects" if live or self.model is OpenQuestion else "all_objects"
        found = getattr(self.model, manager).filter(**{self.lookup: key}).first()
        if found is None:
            raise Http404
        return found  # type: ignore[no-any-return]

    def or_elsewhere(self, request: Request, key: Any, handle: Callable[[Request, Any], Response]) -> HttpResponseBase:
        """What ``handle`` answers; for an item now at another address (:class:`_Elsewhere`), the same request at its
        watch there, as the item's own address answers (a read with 301, a watch or unwatch with 308)."""
        try:
            return handle(request, key)
        except _Elsewhere as elsewhere:
            return same_request_at(request, slug=elsewhere.slug)

    def read(self, request: Request, key: Any) -> Response:
        """The watch, as a resource of its own: there while you watch the item, gone (404) once you unwatch it."""
        reject_unreadable_parameters(request, COMMON_PARAMETERS)
        target = self.target(request, key, live=False)
        if not watch_state.is_watching(_account(request).pk, watch_kind(target), target.pk):
            raise NotFound(gettext("You do not watch it."), code="not_watching")
        return _state(watching=True)

    def watch(self, request: Request, key: Any) -> Response:
        target = self.target(request, key, live=True)
        WatchSerializer(data=request.data).is_valid(raise_exception=True)
        watch_add(user=_account(request), target=target, precondition=_preconditions(request))
        # the watch's version, as its GET answers it, for a conditional unwatch
        return with_validator(_state(watching=True), _version(watching=True))

    def unwatch(self, request: Request, key: Any) -> Response:
        target = self.target(request, key, live=False)
        watch_remove(user=_account(request), target=target, precondition=_preconditions(request))
        return _state(watching=False)


@overload
def _version(watching: Literal[True]) -> Validator: ...
@overload
def _version(watching: bool) -> Validator | None: ...
def _version(watching: bool) -> Validator | None:
    """The watch's version as its GET answers it (its ETag), or None while the item is not watched (a 404)."""
    return Validator(etag=representation_etag(WatchStateSerializer({"watching": True}).data),
                     last_modified=None) if watching else None


def _preconditions(request: Request) -> Callable[[bool], None]:
    """The request's If-Match and If-None-Match, checked by the service under the watch's lock against whether the
    item is watched then: a watch or unwatch landing after a check made here would be lost to it."""
    def check(watching: bool) -> None:
        check_preconditions(request, lambda: _version(watching))

    return check


Handler = Callable[..., HttpResponseBase]


def _watch_schema(parameter: OpenApiParameter, *summaries: StrOrPromise,
                  moved: dict[str, dict[int, OpenApiResponse]] | None = None) -> dict[str, Callable[[Handler], Handler]]:
    """The three operations on one kind of item's watch; ``moved`` adds, by method, the redirects of an item reached
    by an address it had before."""
    read, watch, unwatch = summaries
    moved = moved or {}
    return {
        "get": extend_schema(summary=read, description=_ANONYMOUS, parameters=[parameter], responses={
            200: WatchStateSerializer,
            404: OpenApiResponse(ErrorSerializer, description=gettext_lazy("You do not watch it (`code`: `not_watching`), or there is "
                                                                             "no such item.")),
            **moved.get("get", {})}),
        "put": extend_schema(summary=watch, description=_ANONYMOUS, parameters=[parameter, IF_MATCH], request=WatchSerializer,
                             responses={200: WatchStateSerializer, **PRECONDITION_FAILED, **moved.get("put", {})}),
        # answers 200 with the state, as the two others do, not 204
        "delete": extend_schema(summary=unwatch, description=_ANONYMOUS, parameters=[parameter, IF_MATCH], request=None,
                                responses={200: WatchStateSerializer, **PRECONDITION_FAILED, **moved.get("delete", {})}),
    }


# A page's watch by an address the page had before it was moved leads to its watch at the page's address now, as the
# page's own address does (wiki.api.views.pages): a read with 301, a watch or unwatch with 308 (sent again as it was).
_PAGE_MOVED_READ = {301: OpenApiResponse(description=gettext_lazy("The page was moved: `Location` is its watch at its address now."))}
_PAGE_MOVED_WRITE = {308: OpenApiResponse(description=gettext_lazy("The page was moved: send the same request (method, headers and "
                                                                   "body) to `Location`, its watch at its address now."))}


_PAGE_SCHEMA = _watch_schema(
    OpenApiParameter("slug", str, OpenApiParameter.PATH, description=gettext_lazy("The page's address (slug), or one it had before "
                                                                                   "it was moved.")),
    gettext_lazy("Whether you watch a page"), gettext_lazy("Watch a page"), gettext_lazy("Unwatch a page"),
    moved={"get": _PAGE_MOVED_READ, "put": _PAGE_MOVED_WRITE, "delete": _PAGE_MOVED_WRITE})
# A work merged into another leads to the kept work's watch, as the work's own address leads to the kept work.
_SOURCE_MERGED_READ = {301: OpenApiResponse(description=gettext_lazy("The work was merged into another: `Location` is the kept "
                                                                     "work's watch."))}
_SOURCE_MERGED_WRITE = {308: OpenApiResponse(description=gettext_lazy("The work was merged into another: send the same request "
                                                                      "(method, headers and body) to `Location`, the kept work's watch."))}
_SOURCE_SCHEMA = _watch_schema(
    OpenApiParameter("slug", str, OpenApiParameter.PATH, description=gettext_lazy("The work's slug, or that of a work merged into it.")),
    gettext_lazy("Whether you watch a work"), gettext_lazy("Watch a work"), gettext_lazy("Unwatch a work"),
    moved={"get": _SOURCE_MERGED_READ, "put": _SOURCE_MERGED_WRITE, "delete": _SOURCE_MERGED_WRITE})
_QUESTION_SCHEMA = _watch_schema(
    OpenApiParameter("id", int, OpenApiParameter.PATH, description=gettext_lazy("The open question's id.")),
    gettext_lazy("Whether you watch an open question"), gettext_lazy("Watch an open question"),
    gettext_lazy("Unwatch an open question"))


class PageWatchView(WatchView):
    model, lookup = Page, "slug"

    @_PAGE_SCHEMA["get"]
    def get(self, request: Request, slug: str) -> HttpResponseBase:
        return self.or_elsewhere(request, slug, self.read)

    @_PAGE_SCHEMA["put"]
    def put(self, request: Request, slug: str) -> HttpResponseBase:
        return self.or_elsewhere(request, slug, self.watch)

    @_PAGE_SCHEMA["delete"]
    def delete(self, request: Request, slug: str) -> HttpResponseBase:
        return self.or_elsewhere(request, slug, self.unwatch)

    def target(self, request: Request, key: Any, *, live: bool) -> Watchable:
        """The page, as for any item; when no page is at ``key`` but one was moved from it, the page at its address
        now (the page's own address leads there)."""
        try:
            return super().target(request, key, live=live)
        except Http404:
            # (the base refuses a slug with a control character before any query)
            if not is_control_free(str(key)) or (now := PageRedirect.objects.page_slug_at(key)) is None:
                raise
            raise _Elsewhere(now) from None


class SourceWatchView(WatchView):
    model, lookup = Source, "slug"

    @_SOURCE_SCHEMA["get"]
    def get(self, request: Request, slug: str) -> HttpResponseBase:
        return self.or_elsewhere(request, slug, self.read)

    @_SOURCE_SCHEMA["put"]
    def put(self, request: Request, slug: str) -> HttpResponseBase:
        return self.or_elsewhere(request, slug, self.watch)

    @_SOURCE_SCHEMA["delete"]
    def delete(self, request: Request, slug: str) -> HttpResponseBase:
        return self.or_elsewhere(request, slug, self.unwatch)

    def target(self, request: Request, key: Any, *, live: bool) -> Watchable:
        """The work, as for any item; a work merged into another is the kept work's watch, wherever it is asked for
        (its watches moved there with the merge), and is answered by :meth:`or_elsewhere`."""
        found = cast(Source, super().target(request, key, live=False))
        if found.merged_into_id is not None:
            raise _Elsewhere(Source.all_objects.values_list("slug", flat=True).get(pk=found.merged_into_id))
        if live and found.deleted_at is not None:
            raise Http404
        return found


class QuestionWatchView(WatchView):
    model, lookup = OpenQuestion, "pk"

    @_QUESTION_SCHEMA["get"]
    def get(self, request: Request, id: int) -> Response:  # noqa: A002 - the path's name, as the questions' own
        return self.read(request, id)

    @_QUESTION_SCHEMA["put"]
    def put(self, request: Request, id: int) -> Response:  # noqa: A002
        return self.watch(request, id)

    @_QUESTION_SCHEMA["delete"]
    def delete(self, request: Request, id: int) -> Response:  # noqa: A002
        return self.unwatch(request, id)
