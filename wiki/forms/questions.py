from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.http import QueryDict
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from wiki.forms.claim_choices import claim_label
from wiki.forms.opened import OPENED, OpenedField, remember_opened
from wiki.forms.pickers import PageSlugField, WorkMultipleChoiceField
from wiki.forms.widgets import CheckboxListInTheirLanguage, ChoicesInTheirLanguage
from wiki.models import Claim, OpenQuestion, Page, QuestionStatus
from wiki.roles import EDITOR_GROUP
from wiki.services.questions import unrelated_answer

QUESTION_FIELDS = ["title", "text", "page", "status", "priority", "assignee", "resolution_criteria", "claims", "sources", "answer_claim"]
# Linked rather than stored on the question: the question service takes them apart from its fields.
QUESTION_LINKS = ("claims", "sources")


def duplicate_question_error(existing: OpenQuestion) -> forms.ValidationError:
    """What an edit that would make a question ask what ``existing`` asks already is told; nothing is saved."""
    return forms.ValidationError(
        _("Another unresolved question in the queue asks this already: #%(id)s “%(title)s”. Change the "
          "title, the text or the page, or resolve one of the two; nothing was saved."),
        code="duplicate", params={"id": existing.pk, "title": existing.title})


class QuestionForm(forms.ModelForm):  # type: ignore[type-arg]
    # When the question was last saved as the editor saw it: a save by someone else since is a conflict.
    loaded_at = forms.DateTimeField(required=False, widget=forms.HiddenInput)
    opened = OpenedField()
    sources = WorkMultipleChoiceField(required=False, label=capfirst(OpenQuestion._meta.get_field("sources").verbose_name))
    page = PageSlugField(Page.all_objects.none(), required=False, label=capfirst(OpenQuestion._meta.get_field("page").verbose_name))

    fields: dict[str, Any]  # model choice fields among them, whose querysets and labels __init__ sets by name

    class Meta:
        model = OpenQuestion
        fields = QUESTION_FIELDS
        widgets = {"text": forms.Textarea(attrs={"rows": 4}), "resolution_criteria": forms.Textarea(attrs={"rows": 3}),
                   "answer_claim": ChoicesInTheirLanguage()}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Offered: the current claims of the question's page (a wiki holds too many to list them all); those the
        # question is linked to already (orphaned, retired or on another page since), so that saving keeps its links;
        # and the current claims the form was sent with, so that showing another page's claims, or an error, keeps
        # what was ticked. The answer may be any current one of them: a related claim on another page answers too.
        page_id = self.chosen_page_id()
        current = Claim.objects.current()
        on_page = Q(pk__in=current.filter(page_id=page_id).values("pk")) if page_id else Q(pk__in=[])
        ticked = Q(pk__in=current.filter(pk__in=self._sent_ids("claims")).values("pk"))
        picked = Q(pk__in=current.filter(pk__in=self._sent_ids("answer_claim")).values("pk"))
        linked = Q(pk__in=self.instance.claims.values("pk")) if self.instance.pk else Q(pk__in=[])
        answer = Q(pk=self.instance.answer_claim_id) if self.instance.answer_claim_id else Q(pk__in=[])
        claims = Claim.objects.select_related("page").in_page_order()
        # A question keeps its page while the page is deleted (it leaves the lists, and comes back with the page).
        own_page = Q(pk=self.instance.page_id) if self.instance.page_id else Q(pk__in=[])
        self.fields["page"].queryset = Page.all_objects.filter(Q(deleted_at__isnull=True) | own_page).only("id", "slug")
        self.fields["assignee"].queryset = get_user_model().objects.filter(groups__name=EDITOR_GROUP).order_by("username")
        self.fields["claims"].queryset = claims.filter(on_page | ticked | linked)
        self.fields["claims"].widget = CheckboxListInTheirLanguage(choices=self.fields["claims"].choices)
        related = Q(pk__in=current.filter(pk__in=self.instance.claims.values("pk")).values("pk")) if self.instance.pk else Q(pk__in=[])
        self.fields["answer_claim"].queryset = claims.filter(on_page | picked | answer | ticked | related)
        self.fields["answer_claim"].help_text = _("Required when the status is “answered”.")
        self.fields["claims"].help_text = _("The claims of the question's page, and those it is linked to already. For "
                                            "another page's claims, choose the page and press “Show the page's claims”.")
        for name in ("claims", "answer_claim"):
            self.fields[name].label_from_instance = claim_label
        remember_opened(self)

    @classmethod
    def shown_again(cls, data: QueryDict, instance: OpenQuestion | None = None) -> QuestionForm:
        """The form as sent, not saved and without errors, offering the claims of the page chosen in it."""
        initial: dict[str, Any] = {name: data.getlist(name) if name in QUESTION_LINKS else data.get(name)
                                   for name in [*QUESTION_FIELDS, "loaded_at", OPENED] if name in data}
        form = cls(initial=initial, instance=instance)
        # The page comes back at the top: the editor goes on where the claims were filled in (the first of them, the
        # widget sees to it), or at the page when it has none to offer.
        focused = "claims" if form.fields["claims"].queryset.exists() else "page"
        form.fields[focused].widget.attrs["autofocus"] = True
        return form

    def _sent_ids(self, name: str) -> list[int]:
        """The ids the form was sent (or shown again) with in field ``name``."""
        if self.is_bound:
            key = self.add_prefix(name)
            raw: Any = self.data.getlist(key) if hasattr(self.data, "getlist") else self.data.get(key)
        else:
            raw = self.initial.get(name)
        values = raw if isinstance(raw, (list, tuple)) else [raw]
        texts = (str(getattr(item, "pk", item) or "") for item in values)
        return [int(text) for text in texts if text.isdigit()]

    def chosen_page_id(self) -> int | None:
        """The page whose claims the form offers: the one sent, else the one it opened with, else the question's."""
        chosen = self.data.get(self.add_prefix("page")) if self.is_bound else self.initial.get("page") or self.instance.page_id
        if isinstance(chosen, Page):
            return chosen.pk
        if isinstance(chosen, int):
            return chosen
        # Typed as the page field reads it (slug, wiki link or title); a deleted page is the question's own still.
        named = Page.all_objects.named(str(chosen or "")) if chosen else []
        return named[0].pk if len(named) == 1 else None

    def question_fields(self) -> dict[str, Any]:
        """The cleaned fields the question service stores on the question itself (its claims and works go apart)."""
        return {name: self.cleaned_data[name] for name in QUESTION_FIELDS if name not in QUESTION_LINKS}

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        if cleaned.get("status") == QuestionStatus.ANSWERED and not cleaned.get("answer_claim"):
            self.add_error("answer_claim", forms.ValidationError(
                _("An answered question needs the claim that answers it."), code="answer_required"))
        # The choices keep an answer sent from any page (so that showing the form again keeps it); whether it may
        # answer the question is the service's rule, checked here to say so by the field.
        if "answer_claim" in cleaned and "page" in cleaned and "claims" in cleaned:
            page = cleaned["page"]
            refusal = unrelated_answer(question=self.instance if self.instance.pk else None, answer=cleaned["answer_claim"],
                                       page_id=page.pk if page else None, claim_ids=[claim.pk for claim in cleaned["claims"]])
            if refusal is not None:
                self.add_error(None, refusal)
        return cleaned

