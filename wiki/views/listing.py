"""Filtered, paginated lists: bad filter values answer 400 with the form's messages, not a guess."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from typing import Generic, TypeVar

from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django_filters import FilterSet

from wiki.paginator import Paginator

PER_PAGE = 100
# How many rows of a list a page shows before linking to the whole list.
IN_PAGE = 30

T = TypeVar("T", bound=Model)


def render_filtered_list(request: HttpRequest, template: str, filterset: FilterSet,
                         extra: dict[str, object] | None = None) -> HttpResponse:
    page = None
    if filterset.is_valid() or not filterset.is_bound:
        page = Paginator(filterset.qs, PER_PAGE).get_page(request.GET.get("p"))
    status = 200 if page is not None else 400
    context = {"filter": filterset, "page_obj": page, "filters_chosen": filters_chosen(filterset), **(extra or {})}
    return render(request, template, context, status=status)


def filters_chosen(filterset: FilterSet) -> bool:
    """Whether the request sets any of the list's filters, its order included: on a phone their panel, folded
    otherwise, then opens to show them (includes/filter_form.html)."""
    data = filterset.data
    if not filterset.is_bound or not isinstance(data, QueryDict):
        return False
    return any(value for name in filterset.form.fields for value in data.getlist(name))


class Bounded(Generic[T]):
    """The first ``limit`` rows of a list shown inside a page, read when first used, and whether there are more.

    A page shows a bounded part of each list with a link to the whole, paginated list, so that
    its size does not grow with the wiki: one query of ``limit + 1`` rows, no count.
    """

    def __init__(self, queryset: QuerySet[T], limit: int) -> None:
        self.queryset = queryset
        self.limit = limit

    @cached_property
    def _rows(self) -> list[T]:
        return list(self.queryset[: self.limit + 1])

    @property
    def more(self) -> bool:
        return len(self._rows) > self.limit

    def __iter__(self) -> Iterator[T]:
        return iter(self._rows[: self.limit])

    def __len__(self) -> int:
        return min(len(self._rows), self.limit)

    def __bool__(self) -> bool:
        return bool(self._rows)
