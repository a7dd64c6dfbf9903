"""Recent changes across pages, sources, claims, classifications, contrasts and questions."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from wiki.models import ChangeEvent

CHANGES_PAGE_SIZE = 50


def changes(request: HttpRequest) -> HttpResponse:
    kind = request.GET.get("kind") or None
    if kind is not None and kind not in ChangeEvent.Kind.values:
        context = {"changes": None, "kind": None, "kinds": ChangeEvent.Kind.choices,
                   "error": _("“%(kind)s” is not a kind of change; choose one from the list.") % {"kind": kind}}
        return render(request, "wiki/changes.html", context, status=400)
    listing = Paginator(ChangeEvent.objects.recent(kind), CHANGES_PAGE_SIZE).get_page(request.GET.get("p"))
    return render(request, "wiki/changes.html", {"changes": listing, "kind": kind, "kinds": ChangeEvent.Kind.choices})
