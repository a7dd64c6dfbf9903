"""Recent changes across the wiki, filtered as the recent changes page filters them (``wiki.filters.changes``); the
watchlist reads its changes with the same parameters."""

from __future__ import annotations

from typing import Any, cast

from django.http import QueryDict
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy
from django_filters.utils import translate_validation
from django_stubs_ext import StrOrPromise
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import ErrorDetail, NotAuthenticated, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from wiki.api.filters import PAGING, UPDATED_AFTER, read_updated_after, reject_unreadable_parameters, updated_after_help
from wiki.api.pagination import WikiPagination
from wiki.api.serializers.watchlist import ChangeSerializer
from wiki.api.views.base import WikiAPIView
from wiki.filters import NOT_YES_NO, yes_no
from wiki.filters.changes import DAYS_CHOICES, ChangeFilter
from wiki.models import ChangeEvent
from wiki.models.changes import ChangeEventQuerySet

# Boxes only an account can tick: its own edits.
ACCOUNT_TICKS = frozenset({"hidemine"})


def change_filter_parameters(*ticks: tuple[str, StrOrPromise]) -> list[OpenApiParameter]:
    """The schema of the filters: a kind, a number of days, a moment, and the boxes ``ticks`` names with their
    meaning."""
    return [
        OpenApiParameter("kind", str, enum=ChangeEvent.Kind.values, description=gettext_lazy("Changes of this kind only.")),
        OpenApiParameter("days", int, enum=list(DAYS_CHOICES), description=gettext_lazy("Changes of the last 1, 3, 7 or 30 days only.")),
        OpenApiParameter(UPDATED_AFTER, OpenApiTypes.DATETIME, description=updated_after_help(gettext_lazy(
            "the changes made after this moment (their `created_at` later than it): those a script that read the list "
            "then has not seen"))),
        *(OpenApiParameter(name, bool, description=format_lazy(
            gettext_lazy("{meaning} (`1` and `0` are read as `true` and `false`)."), meaning=meaning))
          for name, meaning in ticks),
    ]


def read_change_filters(request: Request, filterset_class: type[ChangeFilter], queryset: ChangeEventQuerySet) -> ChangeEventQuerySet:
    """The changes the query's filters keep, and ``updated_after`` as the other lists read it: a parameter the
    FilterSet has not, or a value it refuses, is a 400; a box ticked by an anonymous client that only an account has
    (``hidemine``) is a 401."""
    # the filters of this list (the watchlist has no ``user``), with those an anonymous client is refused below
    reject_unreadable_parameters(request, set(filterset_class(request=request).filters) | ACCOUNT_TICKS | PAGING | {UPDATED_AFTER})
    params: QueryDict = request.query_params.copy()
    errors: dict[str, list[ErrorDetail]] = {}
    for name in filterset_class.ticks:
        value = params.get(name)
        if value is None:
            continue
        # a box is ticked with true and left unticked with false or by leaving it out
        ticked = yes_no(value)
        if ticked is False:
            del params[name]
        elif ticked:
            params[name] = "1"
            if name in ACCOUNT_TICKS and not request.user.is_authenticated:
                raise NotAuthenticated(gettext("Only a logged-in client has its own edits to hide: send your token, "
                                               "or leave %(name)s out.") % {"name": name})
        else:
            del params[name]
            errors[name] = [ErrorDetail(str(NOT_YES_NO), code="invalid")]
    filters = filterset_class(params, queryset=queryset, request=request)
    if not filters.is_valid() or errors:
        # each message with its code (the form's), as the other lists' filters answer
        refused = cast(ValidationError, translate_validation(filters.errors))  # typed as a dict in django-filter's stubs
        raise ValidationError({**cast(dict[str, Any], refused.detail), **errors})
    moment = read_updated_after(request)
    return filters.changes if moment is None else filters.changes.made_after(moment)


class RecentChangesView(WikiAPIView):
    """The wiki's recent changes, newest first: the edits, moves and deletions of pages, the changes of works, claims,
    classifications, contrasts and open questions, as the recent changes page lists them."""

    permission_classes = [AllowAny]
    pagination_class = WikiPagination

    @extend_schema(
        summary=gettext_lazy("Recent changes"), responses=ChangeSerializer(many=True),
        parameters=[
            OpenApiParameter("user", str, description=gettext_lazy("The changes this account made (its username).")),
            *change_filter_parameters(
                ("hidemine", gettext_lazy("True: without your own edits (needs credentials: 401 without)")),
                ("hideminor", gettext_lazy("True: without minor edits"))),
        ],
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        changes = read_change_filters(request, ChangeFilter, ChangeEvent.objects.recent())
        paginator = WikiPagination()
        page = paginator.paginate_queryset(changes, request, view=self)
        return paginator.get_paginated_response(ChangeSerializer(page, many=True).data)
