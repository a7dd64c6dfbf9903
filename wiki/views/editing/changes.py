"""Recent changes across pages, sources, claims, classifications, contrasts and questions; all of them, or of one
kind, or one account's (its contributions), over the last few days, with or without the reader's own."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from wiki.models import ChangeEvent
from wiki.paginator import Paginator
from wiki.roles import account_named

CHANGES_PAGE_SIZE = 50
# How many days back the list can be limited to, as a wiki's recent changes offer.
DAYS_CHOICES = (1, 3, 7, 30)


@require_safe
def changes(request: HttpRequest) -> HttpResponse:
    kind = request.GET.get("kind") or None
    username = request.GET.get("user", "").strip()
    raw_days = request.GET.get("days", "")
    days = int(raw_days) if raw_days.isdigit() and int(raw_days) in DAYS_CHOICES else None
    # Only a logged-in reader has edits of their own to hide.
    hide_mine = request.user.is_authenticated and request.GET.get("hidemine") == "1"
    context: dict[str, Any] = {"kind": kind, "kinds": ChangeEvent.Kind.choices, "username": username, "days": days,
                               "days_choices": DAYS_CHOICES, "hide_mine": hide_mine}
    errors = {}
    if kind is not None and kind not in ChangeEvent.Kind.values:
        errors["kind"] = _("“%(kind)s” is not a kind of change; choose one from the list.") % {"kind": kind}
        context["kind"] = None
    if raw_days and days is None:
        errors["days"] = _("“%(days)s” is not a number of days to show; choose one from the list.") % {"days": raw_days[:40]}
    account = account_named(username) if username else None
    if account is not None:
        context["username"] = account.username  # as the account spells it, whatever the case typed
    elif username:
        errors["user"] = _("No account is called “%(name)s”.") % {"name": username}
    if errors:
        return render(request, "wiki/changes.html", {**context, "changes": None, "errors": errors}, status=400)
    events = ChangeEvent.objects.recent(
        kind, user_id=account.pk if account else None, since=timezone.now() - timedelta(days=days) if days else None,
        hiding_user_id=request.user.pk if hide_mine else None,
    ).with_history()
    listing = Paginator(events, CHANGES_PAGE_SIZE).get_page(request.GET.get("p"))
    return render(request, "wiki/changes.html", {**context, "changes": listing})
