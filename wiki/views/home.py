from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from wiki.models import ChangeEvent, OpenQuestion, Page


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "wiki/home.html",
        {
            "pages": Page.objects.for_listing(),
            "changes": ChangeEvent.objects.select_related("user")[:15],
            "questions": OpenQuestion.objects.unresolved().queue()[:5],
        },
    )
