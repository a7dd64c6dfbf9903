from __future__ import annotations

from datetime import timedelta

from django import forms
from django.utils.translation import gettext_lazy as _

from wiki.models.rules import validate_line
from wiki.models.tokens import MAX_NAME_CHARS
from wiki.services.tokens import DEFAULT_LIFETIME

# No "never": a token writes as its editor, and one that never expires outlives the script it was made for.
LIFETIME_CHOICES = [(7, _("7 days")), (30, _("30 days")), (90, _("90 days")), (365, _("1 year"))]


class ApiTokenForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=MAX_NAME_CHARS,
                           validators=[validate_line],
                           help_text=_("What the token is for, such as the script or machine that sends it."))
    lifetime = forms.TypedChoiceField(label=_("Expires after"), choices=LIFETIME_CHOICES, coerce=int,
                                      initial=DEFAULT_LIFETIME.days)

    def lifetime_chosen(self) -> timedelta:
        return timedelta(days=self.cleaned_data["lifetime"])
