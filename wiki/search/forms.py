from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from wiki.models import SearchDocument
from wiki.models.classifications import MECHANISM_CHOICES, VERDICT_CHOICES
from wiki.search.query import MAX_QUERY_LENGTH


class SearchForm(forms.Form):
    q = forms.CharField(label=_("Search"), max_length=MAX_QUERY_LENGTH, required=False,
                        widget=forms.TextInput(attrs={"type": "search", "placeholder": _("credit assignment, GRPO, ES parameters…")}))
    kind = forms.ChoiceField(label=_("Kind"), required=False, choices=[("", _("Everything")), *SearchDocument.Kind.choices])
    mechanism = forms.ChoiceField(label=_("Mechanism"), required=False, choices=[("", _("Any mechanism")), *MECHANISM_CHOICES])
    verdict = forms.ChoiceField(label=_("Verdict"), required=False, choices=[("", _("Any verdict")), *VERDICT_CHOICES])
