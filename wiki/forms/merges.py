from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from wiki.forms.pickers import WorkChoiceField
from wiki.models import Source
from wiki.services.merge_fields import FieldChoice

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


# The value a field of the kept work takes in a merge: its own, or the merged work's.
KEEP, TAKE = "kept", "merged"


class MergeFieldsForm(forms.Form):
    """For each field the two works give otherwise (:func:`~wiki.services.merge_fields.merge_field_choices`), which
    value the kept work takes (its own unless another is picked), and when each work was last saved as the editor
    compared them."""

    kept_at = forms.DateTimeField(widget=forms.HiddenInput)
    merged_at = forms.DateTimeField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, choices: Sequence[FieldChoice], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.choices = list(choices)
        for choice in self.choices:
            self.fields[f"take_{choice.name}"] = forms.ChoiceField(
                label=choice.label, choices=[(KEEP, choice.kept_shown), (TAKE, choice.merged_shown)], initial=KEEP,
                required=False, widget=forms.RadioSelect)

    def rows(self) -> list[tuple[FieldChoice, forms.BoundField]]:
        return [(choice, self[f"take_{choice.name}"]) for choice in self.choices]

    def taken(self) -> list[str]:
        """The fields whose merged work's value was picked."""
        return [choice.name for choice in self.choices if self.cleaned_data.get(f"take_{choice.name}") == TAKE]

    def seen(self, *, kept: Source, merged: Source) -> dict[int, datetime]:
        return {kept.pk: self.cleaned_data["kept_at"], merged.pk: self.cleaned_data["merged_at"]}
