"""The open questions, saved through the question services."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db import models
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.html import escape
from django.utils.translation import gettext

from wiki.admin.base import NamesSortedAdmin, without_text
from wiki.forms.questions import QUESTION_FIELDS, QuestionForm, duplicate_question_error
from wiki.models import OpenQuestion
from wiki.services.questions import QuestionDuplicate, question_asked_already, question_create, question_update


class AdminQuestionForm(QuestionForm):
    """The wiki's form, which also refuses an edit making the question ask what another unresolved one asks: the
    admin then shows the form again with the error and what was typed, as the wiki's edit form does. The admin shows
    a help text as markup, the wiki as text: escaped, a page's address reads /wiki/<slug>/ here too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.help_text = escape(field.help_text)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.instance.pk is not None and not self.errors:
            existing = question_asked_already(question=self.instance, fields=self.question_fields())
            if existing is not None:
                self.add_error(None, duplicate_question_error(existing))
        return cleaned


@admin.register(OpenQuestion)
class OpenQuestionAdmin(NamesSortedAdmin):
    """Edited with the wiki's own form and saved through the question service: the change is in recent changes, the
    search index follows the title and status at once, and a question sent twice is asked once.

    Not deleted here: the wiki has no deletion of questions. One not worth answering is dropped (its status), which
    keeps it with its history; a row removed here would still be found by search and linked from recent changes."""

    form = AdminQuestionForm
    fields = [*QUESTION_FIELDS]
    list_display = ("title", "page", "status", "priority", "assignee", "created_at")
    # No filter by page: it would list every page of the wiki; a search finds a page's questions by its title or slug.
    list_filter = ("status", "priority")
    search_fields = ("title", "text", "resolution_criteria", "page__title", "page__slug")
    list_select_related = ("page", "assignee")
    raw_id_fields = ("page", "assignee", "answer_claim")

    def get_queryset(self, request: HttpRequest) -> models.QuerySet[OpenQuestion]:
        return without_text(super().get_queryset(request), "page")

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: OpenQuestion, form: QuestionForm, change: bool) -> None:
        fields, claims, sources = form.question_fields(), list(form.cleaned_data["claims"]), list(form.cleaned_data["sources"])
        if change:
            question_update(question=obj, fields=fields, claims=claims, sources=sources, user=request.user)
        else:
            obj.pk = question_create(fields=fields, claims=claims, sources=sources, user=request.user).pk
        obj.refresh_from_db()

    def save_related(self, request: HttpRequest, form: QuestionForm, formsets: Any, change: bool) -> None:
        # The service has linked the claims and works; the form's own save_m2m would write them a second time.
        for formset in formsets:
            self.save_formset(request, form, formset, change=change)

    def changeform_view(self, request: HttpRequest, object_id: str | None = None, form_url: str = "",
                        extra_context: dict[str, Any] | None = None) -> HttpResponse:
        # What the form could not know is refused by the service, and nothing is saved. A question added twice: the
        # editor is shown the question asked first. An edit another question came to ask the same as since the form
        # checked: sent again, the form says so itself, with what was typed (or saves it, that one resolved since).
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except QuestionDuplicate as duplicate:
            if object_id is None:
                self.message_user(request, gettext("This question is in the queue already; nothing was added."),
                                  messages.INFO)
                return HttpResponseRedirect(reverse("admin:wiki_openquestion_change", args=[duplicate.question.pk]))
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except QuestionDuplicate as duplicate:
            self.message_user(request, " ".join(duplicate_question_error(duplicate.question).messages), messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())
