"""Recent changes across pages, sources, claims, classifications, contrasts and questions; all of them, or of one
kind, or one account's (its contributions)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from wiki.models import ChangeEvent
from wiki.paginator import Paginator
from wiki.roles import account_named

CHANGES_PAGE_SIZE = 50


@require_safe
def changes(request: HttpRequest) -> HttpResponse:
    kind = request.GET.get("kind") or None
    username = request.GET.get("user", "").strip()
    context: dict[str, Any] = {"kind": kind, "kinds": ChangeEvent.Kind.choices, "username": username}
    errors = {}
    if kind is not None and kind not in ChangeEvent.Kind.values:
        errors["kind"] = _("“%(kind)s” is not a kind of change; choose one from the list.") % {"kind": kind}
        context["kind"] = None
    account = account_named(username) if username else None
    if username and account is None:
        errors["user"] = _("No account is called “%(name)s”.") % {"name": username}
    if errors:
        return render(request, "wiki/changes.html", {**context, "changes": None, "errors": errors}, status=400)
    events = ChangeEvent.objects.recent(kind, user_id=account.pk if account else None)
    listing = Paginator(events, CHANGES_PAGE_SIZE).get_page(request.GET.get("p"))
    return render(request, "wiki/changes.html", {**context, "changes": listing})
