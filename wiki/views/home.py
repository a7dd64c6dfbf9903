from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from wiki.models import ChangeEvent, Classification, OpenQuestion, Page

RECENT_CHANGES = 15
QUEUE_HEAD = 5


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "wiki/home.html",
        {
            "pages": Page.objects.for_listing(),
            "changes": ChangeEvent.objects.select_related("user")[:RECENT_CHANGES],
            "questions": OpenQuestion.objects.unresolved().queue()[:QUEUE_HEAD],
            "counts": Classification.objects.counts_by_mechanism_and_verdict(),
        },
    )
