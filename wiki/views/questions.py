from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from wiki.models import OpenQuestion


def question_list(request: HttpRequest) -> HttpResponse:
    return render(request, "wiki/question_list.html", {"questions": OpenQuestion.objects.queue()})


def question_detail(request: HttpRequest, pk: int) -> HttpResponse:
    question = get_object_or_404(OpenQuestion.objects.queue(), pk=pk)
    return render(request, "wiki/question_detail.html", {"question": question})
