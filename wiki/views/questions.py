from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from wiki.filters import QuestionFilter
from wiki.models import OpenQuestion

PER_PAGE = 100


def question_list(request: HttpRequest) -> HttpResponse:
    filterset = QuestionFilter(request.GET or None, queryset=OpenQuestion.objects.queue())
    page = None
    if filterset.is_valid() or not filterset.is_bound:
        page = Paginator(filterset.qs, PER_PAGE).get_page(request.GET.get("p"))
    status = 200 if page is not None else 400
    return render(request, "wiki/question_list.html", {"filter": filterset, "page_obj": page}, status=status)


def question_detail(request: HttpRequest, pk: int) -> HttpResponse:
    question = get_object_or_404(OpenQuestion.objects.queue().with_links(), pk=pk)
    return render(request, "wiki/question_detail.html", {"question": question})
