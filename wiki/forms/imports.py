"""Confirming an import after its preview."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from wiki.references.formats import MAX_IMPORT_BYTES, ReferenceFormat

_DIGEST = re.compile(r"[0-9a-f]{64}")


class SourceImportConfirmForm(forms.Form):
    """The file the preview read, sent back as it was (its text, the format it was read in and its name), with the
    digest of what the preview showed: the import is made only if it would do just that."""

    text = forms.CharField(strip=False, max_length=MAX_IMPORT_BYTES, widget=forms.Textarea(attrs={"hidden": "", "data-import-text": ""}))
    format = forms.ChoiceField(required=False, choices=[("", ""), *((f.value, f.label) for f in ReferenceFormat)],
                               widget=forms.HiddenInput)
    file_name = forms.CharField(required=False, max_length=255, widget=forms.HiddenInput)
    digest = forms.CharField(max_length=64, widget=forms.HiddenInput)

    def clean_digest(self) -> str:
        digest = str(self.cleaned_data["digest"]).strip()
        if not _DIGEST.fullmatch(digest):
            raise forms.ValidationError(_("This confirmation is not one a preview gave: preview the file again."),
                                        code="invalid")
        return digest

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        cleaned["reference_format"] = ReferenceFormat(cleaned["format"]) if cleaned.get("format") else None
        return cleaned
