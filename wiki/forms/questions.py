from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from wiki.models import Claim, OpenQuestion, Page, QuestionStatus, Source
from wiki.roles import EDITOR_GROUP

QUESTION_FIELDS = ["title", "text", "page", "status", "priority", "assignee", "resolution_criteria", "claims", "sources", "answer_claim"]


class QuestionForm(forms.ModelForm):  # type: ignore[type-arg]
    # When the question was last saved as the editor saw it: a save by someone else since is a conflict.
    loaded_at = forms.DateTimeField(required=False, widget=forms.HiddenInput)

    fields: dict[str, Any]  # model choice fields among them, whose querysets and labels __init__ sets by name

    class Meta:
        model = OpenQuestion
        fields = QUESTION_FIELDS
        widgets = {"text": forms.Textarea(attrs={"rows": 4}), "resolution_criteria": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        claims = Claim.objects.current().select_related("page").order_by("page__title", "position")
        self.fields["page"].queryset = Page.objects.only("id", "title").order_by("title")
        self.fields["assignee"].queryset = get_user_model().objects.filter(groups__name=EDITOR_GROUP).order_by("username")
        self.fields["claims"].queryset = claims
        self.fields["claims"].widget = forms.CheckboxSelectMultiple(choices=self.fields["claims"].choices)
        self.fields["sources"].queryset = Source.objects.only("id", "short_name").order_by("short_name")
        self.fields["sources"].widget = forms.CheckboxSelectMultiple(choices=self.fields["sources"].choices)
        self.fields["answer_claim"].queryset = claims
        self.fields["answer_claim"].help_text = "Required when the status is “answered”."
        for name in ("claims", "answer_claim"):
            self.fields[name].label_from_instance = lambda claim: f"{claim.page.title}: {claim.text[:90]}"

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        if cleaned.get("status") == QuestionStatus.ANSWERED and not cleaned.get("answer_claim"):
            self.add_error("answer_claim", forms.ValidationError(
                _("An answered question needs the claim that answers it."), code="answer_required"))
        return cleaned

