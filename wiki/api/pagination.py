"""The API lists' paging: by cursor (``?after=``, what a list's ``next`` link sends) or by page number (``?page=N``),
refusing a malformed page, size or cursor (400) instead of guessing.

A list read without ``page`` pages by cursor (:mod:`wiki.api.keyset`): a script following ``next`` from a list's
address pays the same for its last page as for its first, and sees every row once while others edit. ``?page=N``
reads by number as it always did, its links by number too; a number past the last page is a 404 ``not_found``
naming ``page``.
A list computed whole in memory (the consistency findings) pages by number only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext, gettext_lazy
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from wiki.api.errors import PageOutOfRange
from wiki.api.keyset import KeysetPage, keyset_page

AFTER = "after"


def _positive_int(request: Request, name: str, *, maximum: int | None = None) -> int | None:
    raw = request.query_params.get(name)
    if raw is None:
        return None
    if raw == "":
        raise ValidationError({name: [gettext("Leave the parameter out rather than sending it empty.")]}, code="blank")
    try:
        value = int(raw)
    except ValueError:
        raise ValidationError({name: [gettext("A whole number is required.")]}, code="invalid") from None
    if value < 1:
        raise ValidationError({name: [gettext("Ensure this value is greater than or equal to %(limit_value)s.") % {"limit_value": 1}]}, code="min_value")
    if maximum is not None and value > maximum:
        raise ValidationError({name: [gettext("Ensure this value is less than or equal to %(limit_value)s.") % {"limit_value": maximum}]}, code="max_value")
    return value


class WikiPagination(PageNumberPagination):
    page_size_query_param = "page_size"
    # Whether the list pages by cursor too (a QuerySet's does; a list computed whole pages by number only).
    by_cursor = True
    max_page_size = 200
    # REST framework's words, in the wiki's catalogue: a page of results (页码), not a wiki's page (页面).
    invalid_page_message = gettext_lazy("Invalid page.")  # type: ignore[assignment]  # DRF's own is lazy too
    keyset: KeysetPage | None = None

    def get_page_size(self, request: Request) -> int | None:
        # DRF silently falls back to the default (or clamps) on a bad size, which hides a script's mistake.
        return _positive_int(request, self.page_size_query_param, maximum=self.max_page_size) or self.page_size

    def check_parameters(self, request: Request) -> None:
        """400 for a page number or size that is no whole number in range, an empty cursor, or a cursor sent with a
        page number: a page past the last one stays 404. Called before anything is read, so that bad paging is
        refused whatever the address answers (a page's former one)."""
        self.get_page_size(request)
        _positive_int(request, self.page_query_param)
        after = request.query_params.get(AFTER)
        if after == "":
            raise ValidationError({AFTER: [gettext("Leave the parameter out rather than sending it empty.")]}, code="blank")
        if after is not None and self.page_query_param in request.query_params:
            raise ValidationError({AFTER: [gettext("Send either after (a cursor) or page (a number), not both.")]},
                                  code="page_and_cursor")

    def paginate_queryset(self, queryset: QuerySet[Any] | Sequence[Any], request: Request, view: Any = None) -> list[Any] | None:
        self.check_parameters(request)
        if self.page_query_param in request.query_params or not self.by_cursor or not isinstance(queryset, QuerySet):
            if AFTER in request.query_params:
                raise ValidationError({AFTER: [gettext("This list is computed whole and pages by number only: send page, "
                                                       "not after.")]}, code="unknown_parameter")
            try:
                return super().paginate_queryset(queryset, request, view)
            except NotFound as exc:
                raise PageOutOfRange(str(exc.detail), fields=(self.page_query_param,)) from None
        self.request = request
        size = self.get_page_size(request)
        assert size is not None  # the settings give every list a size
        self.count = queryset.count()
        self.keyset = keyset_page(queryset, after=request.query_params.get(AFTER), size=size)
        # The browsable API shows this page's links, not page numbers.
        self.template = "rest_framework/pagination/previous_and_next.html"
        self.display_page_controls = self.keyset.next_cursor is not None
        return self.keyset.rows

    def get_paginated_response(self, data: Any) -> Response:
        if self.keyset is None:
            return super().get_paginated_response(data)
        return Response({"count": self.count, "next": self.get_next_link(), "previous": self.get_previous_link(), "results": data})

    def get_next_link(self) -> str | None:
        if self.keyset is None:
            return super().get_next_link()
        if self.keyset.next_cursor is None or self.request is None:
            return None
        return replace_query_param(self.request.build_absolute_uri(), AFTER, self.keyset.next_cursor)

    def get_previous_link(self) -> str | None:
        if self.keyset is None:
            return super().get_previous_link()
        # A walk by cursor goes forward: going back is following the links kept, or reading by page number.
        return None

    def get_html_context(self) -> Any:
        if self.keyset is None:
            return super().get_html_context()
        return {"previous_url": None, "next_url": self.get_next_link()}

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"]["minimum"] = 1
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"]["maximum"] = self.max_page_size
                parameter["description"] = gettext("Number of results per page (default %(default)s, at most %(most)s).") % {
                    "default": self.page_size, "most": self.max_page_size}
            elif parameter["name"] == self.page_query_param:
                parameter["description"] = gettext_lazy(
                    "A page number: the page of results at that offset, its `next` and `previous` links by number too. "
                    "Past the last page the answer is 404 `not_found`, with `page` in `errors` and `codes`. Without it (and without `after`), the "
                    "first page, whose `next` link pages by cursor.")
        if not self.by_cursor:
            return parameters
        parameters.append({
            "name": AFTER, "required": False, "in": "query",
            "description": gettext_lazy(
                "An opaque cursor, as the `next` link of a page gives it: the page after the last row that page held, "
                "in the same order. Each page costs the same at any depth, and rows added or deleted meanwhile move no "
                "other row across pages (rows are ordered by `ordering`, ties by id; a row whose ordering value changes "
                "mid-walk may be read twice or not at all). `previous` is null on these pages. A cursor that was "
                "altered, or is sent with another `ordering` or to another list, is a 400 `invalid_cursor`; with "
                "`page`, a 400."),
            "schema": {"type": "string", "minLength": 1, "pattern": r"^[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+$"},
        })
        return parameters

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        paginated = super().get_paginated_response_schema(schema)
        examples = {"next": "https://wiki.example.org/api/v1/sources/?after=eyJvIjoiZDk0ZGI1YjQ4MzE5NGNmYiIsInYiOlsic2tpbGxmb3JnZSIsMTJdfQ"
                            ".Vq3KQ0mW7kq0W0dVbZ3nH0kqZbJ4d3W9W4PzQm6Fh2A&page_size=50",
                    "previous": "https://wiki.example.org/api/v1/sources/?page=2&page_size=50"}
        for name in ("next", "previous"):
            link = paginated["properties"][name]
            # OpenAPI 3.1: null is a type of its own (3.0's ``nullable`` means nothing there)
            link.pop("nullable", None)
            link["type"] = ["string", "null"]
            link["example"] = examples[name]
        paginated["properties"]["next"]["description"] = gettext_lazy(
            "The next page, null on the last: by cursor (`after`), or by number when this page was read by number.")
        paginated["properties"]["previous"]["description"] = gettext_lazy(
            "The page before, by number; null on the first page and on a page read by cursor.")
        paginated["properties"]["count"]["example"] = 231
        paginated["properties"]["count"]["description"] = gettext_lazy("How many results the list holds, over all its pages.")
        return paginated


class NumberedPagination(WikiPagination):
    """The paging of a list computed whole in memory, where a page by number costs no more at any depth."""

    by_cursor = False
