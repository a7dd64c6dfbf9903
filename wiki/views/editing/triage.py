"""The triage queue: unclassified works with the classifier's suggestion, accepted in one keystroke."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Page
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from wiki.models import Source
from wiki.models.rules import SOURCE_SLUG_PATTERN
from wiki.paginator import Paginator
from wiki.services.classifications import classification_accept_suggestion
from wiki.suggestions import SuggestionView, stored_suggestions_for, suggestions_refresh
from wiki.taxonomy import mechanism_label, verdict_label
from wiki.views.editing import editor_required

QUEUE_SIZE = 50


@dataclass(frozen=True)
class TriageItem:
    """A work in the queue, its suggestion (``view.has_suggestion`` false when there is nothing to read) and the work
    after it, where the keyboard goes once this one is accepted."""

    source: Source
    view: SuggestionView
    then: str
    back: str  # the queue as it will be once this work is classified, the next work in view


def queue_address(*, least_first: bool, page: str | int = 1, then: str = "") -> str:
    """The queue's address in the same order and on the same page, at the work ``then`` (a slug)."""
    back = {"order": "least"} if least_first else {}
    if re.fullmatch(r"[0-9]{1,9}", str(page)) and int(page) > 1:
        back["p"] = str(page)
    query = urlencode(back)
    anchor = f"#triage-{then}" if re.fullmatch(SOURCE_SLUG_PATTERN, then) else ""
    return reverse("wiki:triage") + (f"?{query}" if query else "") + anchor


def _queue(page: Page[Source], *, least_first: bool) -> list[TriageItem]:
    """The page's works with their suggestions, each with the work that takes its place once it is accepted: the
    next in the whole queue (the first of the next page moves up onto this one), after the last the one before it."""
    start = page.start_index() - 1
    rows = list(page.paginator.object_list[max(start - 1, 0):page.end_index() + 1])
    before = rows.pop(0) if start > 0 and rows else None
    sources = rows[:QUEUE_SIZE]
    views = stored_suggestions_for(sources)
    items = []
    for i, source in enumerate(sources):
        then = rows[i + 1] if i + 1 < len(rows) else sources[i - 1] if i > 0 else before
        slug = then.slug if then is not None else ""
        items.append(TriageItem(source, views[source.pk], slug,
                                queue_address(least_first=least_first, page=page.number, then=slug)))
    return items


@require_safe
@editor_required("wiki.add_classification")
def triage_queue(request: HttpRequest) -> HttpResponse:
    """Every unclassified work, most (or least) confident suggestion first over the whole queue, a page at a time."""
    least_first = request.GET.get("order") == "least"
    # The order is the stored suggestions'; what a page shows is checked against each work's text as it is.
    suggestions_refresh()
    queue = Source.objects.unclassified().by_suggestion_confidence(least_first=least_first)
    page = Paginator(queue, QUEUE_SIZE).get_page(request.GET.get("p"))
    return render(request, "wiki/edit/triage.html", {
        "items": _queue(page, least_first=least_first), "least_first": least_first, "page_obj": page,
    })


@require_POST
@editor_required("wiki.add_classification")
def triage_accept(request: HttpRequest, slug: str) -> HttpResponse:
    source = get_object_or_404(Source.objects, slug=slug)
    try:
        classification = classification_accept_suggestion(source=source, user=request.user)
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
    else:
        messages.success(request, _("Accepted the suggestion for %(work)s: %(mechanism)s, %(verdict)s.") % {
            "work": source.short_name, "mechanism": mechanism_label(classification.mechanism),
            "verdict": verdict_label(classification.verdict),
        })
    # Back to the same page of the queue in the same order: the work after this one has moved up into its place.
    return redirect(queue_address(least_first=request.POST.get("order") == "least", page=request.POST.get("p", ""),
                                  then=request.POST.get("then", "")))
