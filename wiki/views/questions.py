from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from wiki.caching.responses import cached_for_readers
from wiki.filters import QuestionFilter
from wiki.models import OpenQuestion
from wiki.views.listing import render_filtered_list


@cached_for_readers
def question_list(request: HttpRequest) -> HttpResponse:
    filterset = QuestionFilter(request.GET or None, queryset=OpenQuestion.objects.queue())
    return render_filtered_list(request, "wiki/question_list.html", filterset)


@cached_for_readers
def question_detail(request: HttpRequest, pk: int) -> HttpResponse:
    question = get_object_or_404(OpenQuestion.objects.queue().with_links(), pk=pk)
    return render(request, "wiki/question_detail.html", {"question": question})
