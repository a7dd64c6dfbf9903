"""Adding, triaging and resolving open questions."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _

from wiki.forms.questions import QuestionForm, duplicate_question_error
from wiki.models import OpenQuestion, Page
from wiki.services.changes import StaleEdit
from wiki.services.questions import QuestionDuplicate, question_create, question_update
from wiki.views.editing import editor_required, stale_form

# The button that sends the form to be shown again with the claims of the page chosen in it, saving nothing.
SHOW_CLAIMS = "show_claims"


@editor_required("wiki.add_openquestion", forms=[QuestionForm])
def question_create_view(request: HttpRequest) -> HttpResponse:
    if request.method == "POST" and SHOW_CLAIMS in request.POST:
        form = QuestionForm.shown_again(request.POST)
    elif request.method == "POST":
        form = QuestionForm(request.POST)
        if form.is_valid():
            try:
                question = question_create(fields=form.question_fields(), claims=list(form.cleaned_data["claims"]),
                                           sources=list(form.cleaned_data["sources"]), user=request.user)
            except QuestionDuplicate as duplicate:
                # A form sent twice (a double click, a re-sent POST): the question asked the first time.
                messages.info(request, _("This question is in the queue already; nothing was added."))
                return redirect(duplicate.question)
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(request, _("Question added to the queue."))
                return redirect(question)
    else:
        page = Page.objects.filter(slug=request.GET.get("page", "")).only("id").first()
        form = QuestionForm(initial={"page": page.pk if page else None})
    return render(request, "wiki/edit/question_form.html", {"form": form, "question": None, "show_claims": SHOW_CLAIMS})


@editor_required("wiki.change_openquestion", forms=[QuestionForm])
def question_edit(request: HttpRequest, pk: int) -> HttpResponse:
    question = get_object_or_404(OpenQuestion, pk=pk)
    if request.method == "POST" and SHOW_CLAIMS in request.POST:
        form = QuestionForm.shown_again(request.POST, instance=question)
    elif request.method == "POST":
        form = QuestionForm(request.POST, instance=OpenQuestion.objects.get(pk=pk))
        if form.is_valid():
            try:
                question_update(question=question, fields=form.question_fields(), claims=list(form.cleaned_data["claims"]),
                                sources=list(form.cleaned_data["sources"]), user=request.user,
                                loaded_at=form.cleaned_data["loaded_at"])
            except StaleEdit as stale:
                stale_form(form, stale, what="question")
                return render(request, "wiki/edit/question_form.html",
                              {"form": form, "question": stale.current, "stale": True, "show_claims": SHOW_CLAIMS}, status=409)
            except QuestionDuplicate as duplicate:
                # As adding it would be refused: the form comes back as sent, saying which question asks it already.
                form.add_error(None, duplicate_question_error(duplicate.question))
                return render(request, "wiki/edit/question_form.html",
                              {"form": form, "question": question, "show_claims": SHOW_CLAIMS}, status=409)
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(request, _("Question saved."))
                return redirect(question)
    else:
        form = QuestionForm(instance=question, initial={"loaded_at": question.updated_at.isoformat()})
    return render(request, "wiki/edit/question_form.html", {"form": form, "question": question, "show_claims": SHOW_CLAIMS})
