from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from wiki.filters import SourceFilter
from wiki.graph.context import local_graph_for
from wiki.models import Claim, Classification, Contrast, OpenQuestion, Source
from wiki.suggestions import suggestions_for_source
from wiki.views.listing import render_filtered_list


def source_list(request: HttpRequest) -> HttpResponse:
    filterset = SourceFilter(request.GET or None, queryset=Source.objects.for_listing())
    return render_filtered_list(request, "wiki/source_list.html", filterset)


def source_detail(request: HttpRequest, slug: str) -> HttpResponse:
    source = get_object_or_404(Source, slug=slug)
    classifications = list(Classification.objects.for_cards().filter(source=source))
    suggestions = suggestions_for_source(source, classifications)
    return render(
        request,
        "wiki/source_detail.html",
        {
            "source": source,
            "cards": zip(classifications, suggestions),
            "unclassified_suggestion": None if classifications else suggestions[0],
            "claims": Claim.objects.citing(source.pk),
            "contrasts": Contrast.objects.with_related().involving([source.pk]),
            "questions": OpenQuestion.objects.queue().filter(sources=source),
            "local_graph": local_graph_for(request, f"source:{slug}"),
        },
    )
