from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from wiki.models import Page, WikiLink


def page_detail(request: HttpRequest, slug: str) -> HttpResponse:
    page = Page.objects.filter(slug=slug).first()
    if page is None:
        backlinks = WikiLink.objects.backlinks_to(slug)
        return render(request, "wiki/page_missing.html", {"slug": slug, "backlinks": backlinks}, status=404)
    return render(
        request,
        "wiki/page_detail.html",
        {"page": page, "backlinks": WikiLink.objects.backlinks_to(slug), "questions": page.questions.queue()},
    )
