"""The triage queue: unclassified works with the classifier's suggestion, accepted in one keystroke."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from wiki.models import Source
from wiki.models.rules import SOURCE_SLUG_PATTERN
from wiki.services.classifications import classification_accept_suggestion
from wiki.suggestions import SuggestionView, suggestion_for, texts_about
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

    @property
    def sort_key(self) -> float:
        # A work with no suggestion is below any confidence: last when the surest come first, first the other way.
        return self.view.suggestion.confidence if self.view.has_suggestion else -1.0


def _queue(*, least_first: bool) -> list[TriageItem]:
    sources = list(Source.objects.unclassified()[:QUEUE_SIZE])
    claims = texts_about([s.pk for s in sources])
    items = [TriageItem(s, suggestion_for(s, claim_texts=claims.get(s.pk, [])), "") for s in sources]
    items.sort(key=lambda item: item.sort_key, reverse=not least_first)
    return [TriageItem(item.source, item.view, _after(items, i)) for i, item in enumerate(items)]


def _after(items: list[TriageItem], i: int) -> str:
    """The slug of the work that takes the place of ``items[i]`` once it is accepted: the next, after the last the
    one before it."""
    if len(items) < 2:
        return ""
    return items[i + 1 if i + 1 < len(items) else i - 1].source.slug


@editor_required("wiki.add_classification")
def triage_queue(request: HttpRequest) -> HttpResponse:
    least_first = request.GET.get("order") == "least"
    return render(request, "wiki/edit/triage.html", {
        "items": _queue(least_first=least_first), "least_first": least_first,
        "total": Source.objects.unclassified().count(),
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
    query = urlencode({"order": "least"}) if request.POST.get("order") == "least" else ""
    then = request.POST.get("then", "")
    anchor = f"#triage-{then}" if re.fullmatch(SOURCE_SLUG_PATTERN, then) else ""
    return redirect(reverse("wiki:triage") + (f"?{query}" if query else "") + anchor)
