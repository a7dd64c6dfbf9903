from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from wiki.caching.responses import cached_for_readers
from wiki.filters import QUESTION_PAGE_OPTIONS_ID, QuestionListFilter
from wiki.models import ClaimRevision, OpenQuestion, Page
from wiki.views.listing import render_filtered_list

# How many pages the page filter offers as it is typed in: those with the most unresolved questions.
PAGE_OPTIONS = 100


@cached_for_readers(*QuestionListFilter.base_filters, "p")
def question_list(request: HttpRequest) -> HttpResponse:
    # Always bound: with no status chosen, the queue shows the unresolved questions.
    filterset = QuestionListFilter(request.GET, queryset=OpenQuestion.objects.resolved_last(), request=request)
    page_options = {"id": QUESTION_PAGE_OPTIONS_ID, "pages": Page.objects.most_questioned(PAGE_OPTIONS)}
    return render_filtered_list(request, "wiki/question_list.html", filterset, {"page_options": page_options})


@cached_for_readers()
def question_detail(request: HttpRequest, pk: int) -> HttpResponse:
    question = OpenQuestion.objects.queue().with_links().with_last_answer().filter(pk=pk).first()
    if question is not None:
        return render(request, "wiki/question_detail.html", {
            "question": question, "answer_merged": ClaimRevision.objects.merged_away(question.answer_claim)})
    # A deleted page's questions leave with it: its address says so, and where the page can be restored.
    gone = OpenQuestion.objects.filter(pk=pk, page__deleted_at__isnull=False).select_related("page").first()
    if gone is None:
        raise Http404
    return render(request, "wiki/question_gone.html", {"question": gone}, status=410)
