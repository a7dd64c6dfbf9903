from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from wiki.caching.responses import cached_for_readers
from wiki.models import ChangeEvent, Classification, OpenQuestion, Page

RECENT_CHANGES = 15
QUEUE_HEAD = 5
# The home page shows the pages being worked on; the rest are one click away on the page list.
RECENT_PAGES = 50


@cached_for_readers()
def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "wiki/home.html",
        {
            "pages": Page.objects.recently_updated()[:RECENT_PAGES],
            "changes": ChangeEvent.objects.recent()[:RECENT_CHANGES],
            "questions": OpenQuestion.objects.unresolved().queue()[:QUEUE_HEAD],
            "counts": Classification.objects.counts_by_mechanism_and_verdict(),
        },
    )
