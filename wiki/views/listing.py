"""Filtered, paginated lists: bad filter values answer 400 with the form's messages, not a guess."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_filters import FilterSet

PER_PAGE = 100


def render_filtered_list(request: HttpRequest, template: str, filterset: FilterSet) -> HttpResponse:
    page = None
    if filterset.is_valid() or not filterset.is_bound:
        page = Paginator(filterset.qs, PER_PAGE).get_page(request.GET.get("p"))
    status = 200 if page is not None else 400
    return render(request, template, {"filter": filterset, "page_obj": page}, status=status)
