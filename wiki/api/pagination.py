"""Page-number pagination that refuses a malformed page or page size (400) instead of guessing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext, gettext_lazy
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request


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
    max_page_size = 200
    # REST framework's words, in the wiki's catalogue: a page of results (页码), not a wiki's page (页面).
    invalid_page_message = gettext_lazy("Invalid page.")  # type: ignore[assignment]  # DRF's own is lazy too

    def get_page_size(self, request: Request) -> int | None:
        # DRF silently falls back to the default (or clamps) on a bad size, which hides a script's mistake.
        return _positive_int(request, self.page_size_query_param, maximum=self.max_page_size) or self.page_size

    def check_parameters(self, request: Request) -> None:
        """400 for a page number or size that is no whole number in range: a page past the last one stays 404. Called
        before anything is read, so that bad paging is refused whatever the address answers (a page's former one)."""
        self.get_page_size(request)
        _positive_int(request, self.page_query_param)

    def paginate_queryset(self, queryset: QuerySet[Any] | Sequence[Any], request: Request, view: Any = None) -> list[Any] | None:
        self.check_parameters(request)
        return super().paginate_queryset(queryset, request, view)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"]["minimum"] = 1
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"]["maximum"] = self.max_page_size
                parameter["description"] = f"Number of results per page (default {self.page_size}, at most {self.max_page_size})."
        return parameters

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        paginated = super().get_paginated_response_schema(schema)
        for name, page in (("next", 3), ("previous", 1)):
            link = paginated["properties"][name]
            # OpenAPI 3.1: null is a type of its own (3.0's ``nullable`` means nothing there)
            link.pop("nullable", None)
            link["type"] = ["string", "null"]
            link["example"] = f"https://wiki.example.org/api/v1/sources/?page={page}&page_size=50"
        paginated["properties"]["count"]["example"] = 231
        return paginated
