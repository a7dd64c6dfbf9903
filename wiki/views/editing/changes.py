"""Recent changes across pages, sources, claims, classifications, contrasts and questions; all of them, or of one
kind, or one account's (its contributions)."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from wiki.models import ChangeEvent
from wiki.models.rules import is_control_free
from wiki.roles import Account

CHANGES_PAGE_SIZE = 50
MAX_USERNAME_CHARS = 150  # Django's User.username


def changes(request: HttpRequest) -> HttpResponse:
    kind = request.GET.get("kind") or None
    username = request.GET.get("user", "").strip()
    context: dict[str, Any] = {"kind": kind, "kinds": ChangeEvent.Kind.choices, "username": username}
    errors = {}
    if kind is not None and kind not in ChangeEvent.Kind.values:
        errors["kind"] = _("“%(kind)s” is not a kind of change; choose one from the list.") % {"kind": kind}
        context["kind"] = None
    account = None
    if username:
        if len(username) <= MAX_USERNAME_CHARS and is_control_free(username):
            account = Account.objects.filter(username=username).only("id").first()
        if account is None:
            errors["user"] = _("No account is called “%(name)s”.") % {"name": username[:MAX_USERNAME_CHARS]}
    if errors:
        return render(request, "wiki/changes.html", {**context, "changes": None, "errors": errors}, status=400)
    events = ChangeEvent.objects.recent(kind, user_id=account.pk if account else None)
    listing = Paginator(events, CHANGES_PAGE_SIZE).get_page(request.GET.get("p"))
    return render(request, "wiki/changes.html", {**context, "changes": listing})
