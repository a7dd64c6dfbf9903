"""Recent changes across pages, sources, claims, classifications, contrasts and questions; all of them, or of one
kind, or one account's (its contributions), over the last few days, with or without the reader's own."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from wiki.filters.changes import ChangeFilter
from wiki.models import ChangeEvent
from wiki.paginator import Paginator

CHANGES_PAGE_SIZE = 50


@require_safe
def changes(request: HttpRequest) -> HttpResponse:
    filters = ChangeFilter(request.GET, queryset=ChangeEvent.objects.recent(), request=request)
    valid = filters.is_valid()
    context = {"filter": filters, "account": filters.form.cleaned_data.get("user")}
    if not valid:
        return render(request, "wiki/changes.html", {**context, "changes": None}, status=400)
    listing = Paginator(filters.changes.with_history(), CHANGES_PAGE_SIZE).get_page(request.GET.get("p"))
    return render(request, "wiki/changes.html", {**context, "changes": listing})
