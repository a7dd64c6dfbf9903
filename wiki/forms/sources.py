from __future__ import annotations

from typing import Any

from django import forms

from wiki.models import Source
from wiki.references.identifiers import normalize_arxiv_id, normalize_doi
from wiki.services.sources import source_find_duplicate

SOURCE_FIELDS = ["short_name", "title", "kind", "authors", "year", "venue", "url", "arxiv_id", "doi", "bibtex_key", "abstract", "notes"]


class SourceImportForm(forms.Form):
    """One box for BibTeX (one or many entries), an arXiv ID or URL, or a DOI or doi.org URL."""

    entry = forms.CharField(
        label="BibTeX, arXiv ID/URL or DOI",
        strip=True,
        max_length=500_000,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text="Paste one or more BibTeX entries, or an arXiv ID (2509.21240v2, arxiv.org/abs/…), or a DOI (10.1145/…, doi.org/…).",
    )

    def clean_entry(self) -> str:
        entry: str = self.cleaned_data["entry"]
        if entry.startswith("@"):
            return entry
        if normalize_doi(entry) is None and normalize_arxiv_id(entry) is None:
            raise forms.ValidationError(
                "Not BibTeX (starts with @), an arXiv ID or a DOI. To add a source by hand, use the form below.",
                code="unrecognised",
            )
        return entry


class SourceForm(forms.ModelForm):  # type: ignore[type-arg]
    url = forms.URLField(label="URL", max_length=500, required=False, assume_scheme="https")
    # When the source was last saved as the editor saw it: a save by someone else since is a conflict.
    loaded_at = forms.DateTimeField(required=False, widget=forms.HiddenInput)

    class Meta:
        model = Source
        fields = SOURCE_FIELDS
        widgets = {
            "authors": forms.Textarea(attrs={"rows": 2}),
            "abstract": forms.Textarea(attrs={"rows": 6}),
            "notes": forms.Textarea(attrs={"rows": 4}),
        }
        labels = {"url": "URL", "arxiv_id": "arXiv ID", "doi": "DOI", "bibtex_key": "BibTeX key"}
        help_texts = {"authors": "Separated by semicolons.", "arxiv_id": "Any form: 2509.21240v2, arXiv:…, an arxiv.org URL.",
                      "doi": "Bare or as a doi.org URL."}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.duplicate: Source | None = None

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        found = source_find_duplicate(
            arxiv_id=cleaned.get("arxiv_id") or "", doi=cleaned.get("doi") or "", title=cleaned.get("title") or "",
            short_name=cleaned.get("short_name") or "", exclude_pk=self.instance.pk,
        )
        if found is not None:
            self.duplicate, reason = found
            raise forms.ValidationError(
                f"This source exists already ({reason}): “{self.duplicate.short_name}”. Use it instead of adding a second.",
                code="duplicate",
            )
        return cleaned

    def _post_clean(self) -> None:
        # Uniqueness of arXiv ID and DOI is reported by clean() with a link to the existing source.
        if self.duplicate is not None:
            return
        self.instance.slug = self.instance.slug or "unsaved"
        super()._post_clean()
