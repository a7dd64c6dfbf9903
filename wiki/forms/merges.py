from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from wiki.forms.pickers import WorkChoiceField
from wiki.models import Source

_ADDRESS = re.compile(r"/sources/(?P<slug>[^/?#]+)")


class MergeForm(forms.Form):
    into = forms.CharField(label=_("Merge into"), max_length=500,
                           help_text=_("The work to keep: its address (…/sources/skillforge/), its slug (skillforge) or its "
                                       "short name (SkillForge)."))

    def __init__(self, *args: object, merged: Source, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.merged = merged

    def clean_into(self) -> Source:
        text = str(self.cleaned_data["into"]).strip()
        found = _ADDRESS.search(text)
        name = found["slug"] if found else text.strip("/")
        # A slug or a short name, whatever its case or width, as every other field that names a work reads it.
        try:
            kept = WorkChoiceField().resolve([name])[0]
        except forms.ValidationError as error:
            if error.code != "unknown":
                raise
            # The view tells whether the work typed was merged into this one.
            raise forms.ValidationError(error.message, code="unknown", params={**(error.params or {}), "slug": name}) from None
        if kept.pk == self.merged.pk:
            raise forms.ValidationError(_("A work cannot be merged into itself."), code="same")
        return kept
