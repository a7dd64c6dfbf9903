from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from wiki.models import Source


def source_list(request: HttpRequest) -> HttpResponse:
    return render(request, "wiki/source_list.html", {"sources": Source.objects.for_listing()})


def source_detail(request: HttpRequest, slug: str) -> HttpResponse:
    source = get_object_or_404(Source.objects.with_classification(), slug=slug)
    return render(request, "wiki/source_detail.html", {"source": source})
