from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from wiki.models.findings import MAX_REASON_CHARS
from wiki.reports.consistency import FINDING_KEY_PATTERN, FINDING_KINDS


class FindingForm(forms.Form):
    """Which finding: its section and the key naming the objects it concerns."""

    kind = forms.ChoiceField(choices=FINDING_KINDS)
    key = forms.RegexField(regex=FINDING_KEY_PATTERN, max_length=200)


class FindingDismissForm(FindingForm):
    reason = forms.CharField(
        label=_("Why this is not a mistake"), max_length=MAX_REASON_CHARS,
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": _("Say why this finding is not a mistake; the reason is kept with the dismissal.")},
    )
