"""Recent changes across pages, sources, claims, classifications, contrasts and questions."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from wiki.models import ChangeEvent

CHANGES_PAGE_SIZE = 50


def recent_changes(kind: str | None = None):  # type: ignore[no-untyped-def]
    """Newest first, with the user's name joined; ``kind`` narrows to one kind of object."""
    events = ChangeEvent.objects.select_related("user").only(
        "id", "kind", "action", "object_id", "label", "url", "summary", "size_delta", "created_at", "user__username"
    ).order_by("-created_at", "-id")
    return events.filter(kind=kind) if kind else events


def changes(request: HttpRequest) -> HttpResponse:
    kind = request.GET.get("kind") if request.GET.get("kind") in ChangeEvent.Kind.values else None
    listing = Paginator(recent_changes(kind), CHANGES_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "wiki/changes.html", {"changes": listing, "kind": kind, "kinds": ChangeEvent.Kind.choices})
