from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from wiki.models import Source

_ADDRESS = re.compile(r"/sources/(?P<slug>[^/?#]+)")


class MergeForm(forms.Form):
    into = forms.CharField(label=_("Merge into"), max_length=500,
                           help_text=_("The work to keep: its address (…/sources/skillforge/) or its slug (skillforge)."))

    def __init__(self, *args: object, merged: Source, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.merged = merged

    def clean_into(self) -> Source:
        text = str(self.cleaned_data["into"]).strip()
        found = _ADDRESS.search(text)
        slug = found["slug"] if found else text.strip("/")
        kept = Source.objects.filter(slug=slug).first()
        if kept is None:
            raise forms.ValidationError(_("No work has the address “%(slug)s”."), code="unknown", params={"slug": slug})
        if kept.pk == self.merged.pk:
            raise forms.ValidationError(_("A work cannot be merged into itself."), code="same")
        return kept
