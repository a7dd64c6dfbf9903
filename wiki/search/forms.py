from __future__ import annotations

from django import forms

from wiki.models import SearchDocument
from wiki.models.classifications import MECHANISM_CHOICES, VERDICT_CHOICES
from wiki.search.query import MAX_QUERY_LENGTH


class SearchForm(forms.Form):
    q = forms.CharField(label="Search", max_length=MAX_QUERY_LENGTH, required=False,
                        widget=forms.TextInput(attrs={"type": "search", "placeholder": "信用分配, GRPO, ES 参数…"}))
    kind = forms.ChoiceField(label="Kind", required=False, choices=[("", "Everything"), *SearchDocument.Kind.choices])
    mechanism = forms.ChoiceField(label="Mechanism", required=False, choices=[("", "Any mechanism"), *MECHANISM_CHOICES])
    verdict = forms.ChoiceField(label="Verdict", required=False, choices=[("", "Any verdict"), *VERDICT_CHOICES])
