"""The triage queue: unclassified works with the classifier's suggestion, accepted in one keystroke."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from wiki.models import Source
from wiki.services.classifications import classification_accept_suggestion
from wiki.suggestions import suggestion_for, texts_about
from wiki.views.editing import editor_required

QUEUE_SIZE = 50


@editor_required("wiki.add_classification")
def triage_queue(request: HttpRequest) -> HttpResponse:
    least_first = request.GET.get("order") == "least"
    sources = list(Source.objects.unclassified()[:QUEUE_SIZE])
    claims = texts_about([s.pk for s in sources])
    items = [(source, suggestion_for(source, claim_texts=claims.get(source.pk, []))) for source in sources]
    items.sort(key=lambda pair: pair[1].suggestion.confidence, reverse=not least_first)
    return render(request, "wiki/edit/triage.html", {
        "items": items, "least_first": least_first, "total": Source.objects.unclassified().count(),
    })


@require_POST
@editor_required("wiki.add_classification")
def triage_accept(request: HttpRequest, slug: str) -> HttpResponse:
    source = get_object_or_404(Source.objects.unclassified(), slug=slug)
    classification_accept_suggestion(source=source, user=request.user)
    order = "?order=least" if request.POST.get("order") == "least" else ""
    return redirect(reverse("wiki:triage") + order)
