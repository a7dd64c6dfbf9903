from __future__ import annotations

from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.forms.models import model_to_dict
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from wiki.forms.opened import OpenedField, remember_opened
from wiki.models import Source, SourceImport
from wiki.models.rules import LinkURLFormField, validate_bibtex_key, validate_optional_line
from wiki.references.citation_matching import WorkRef
from wiki.references.draft import BIBLIOGRAPHIC_FIELDS, ENTRY_TYPE_LABELS, MAX_BIBLIOGRAPHIC_CHARS
from wiki.references.encoding import LEGACY_ENCODING, decode_reference_file
from wiki.references.errors import ReferencesRefused
from wiki.references.extra_fields import clean_extra_fields as kept_extra_fields
from wiki.references.formats import (
    FORMAT_BY_EXTENSION,
    MAX_IMPORT_BYTES,
    MAX_IMPORT_ENTRIES,
    ReferenceFormat,
    detect_format,
)
from wiki.references.identifiers import normalize_arxiv_id, normalize_doi, short_name_key
from wiki.references.updates import is_updatable
from wiki.services.citations import works_close_to
from wiki.services.sources import source_find_duplicate, source_identifiers, source_named
from wiki.text.numbers import grouped

SOURCE_FIELDS = ["short_name", "title", "kind", "authors", "year", "venue", "url", "arxiv_id", "doi", "bibtex_key", "abstract", "notes"]
# What the form gives the services: the fields above, and how the work is written back in the exports.
EDITED_FIELDS = [*SOURCE_FIELDS, "entry_type", "bibliographic", "extra_fields"]
BIBLIOGRAPHIC_PREFIX = "bib_"


class SourceImportForm(forms.Form):
    """Paste or upload what a reference manager exports (BibTeX/biblatex, CSL-JSON, RIS), or paste an arXiv ID or a DOI."""

    entry = forms.CharField(
        label=_("BibTeX, CSL-JSON, RIS, arXiv ID/URL or DOI"),
        required=False,
        strip=True,
        max_length=MAX_IMPORT_BYTES,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "data-import-text": ""}),
        help_text=_("Paste a whole .bib file (text before the first entry is fine), CSL-JSON, RIS, or an arXiv ID "
                    "(2509.21240v2, arxiv.org/abs/…) or a DOI (10.1145/…, doi.org/…)."),
    )
    file = forms.FileField(
        label=_("Or upload a file"),
        required=False,
        widget=forms.ClearableFileInput(attrs={"accept": ".bib,.bibtex,.json,.ris,.txt", "data-import-file": ""}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["file"].help_text = gettext("A .bib, CSL-JSON .json or .ris file of up to %(size)s MB and %(count)s entries.") % {
            "size": MAX_IMPORT_BYTES // (1024 * 1024), "count": grouped(MAX_IMPORT_ENTRIES)}

    def clean_file(self) -> tuple[str, ReferenceFormat | None] | None:
        upload = self.cleaned_data.get("file")
        if not upload:
            return None
        if upload.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(gettext("The file is larger than %(size)s MB; import it in parts.")
                                        % {"size": MAX_IMPORT_BYTES // (1024 * 1024)}, code="too_large")
        try:
            text = decode_reference_file(upload.read(), fallback=LEGACY_ENCODING)
        except ReferencesRefused as refused:
            raise forms.ValidationError(str(refused), code=refused.code) from None
        suffix = "." + upload.name.rsplit(".", 1)[-1].lower() if "." in upload.name else ""
        return text, FORMAT_BY_EXTENSION.get(suffix) if suffix != ".txt" else None

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        uploaded = cleaned.get("file")
        entry = cleaned.get("entry") or ""
        if self.errors:
            return cleaned
        if uploaded:
            text, fmt = uploaded
        elif entry:
            text, fmt = entry, None
        else:
            self.add_error("entry", forms.ValidationError(_("Paste references or an identifier, or choose a file."), code="required"))
            return cleaned
        fmt = fmt or detect_format(text)
        cleaned["text"], cleaned["format"], cleaned["identifier"] = text, fmt, ""
        if fmt is None:
            if "\n" in text.strip() or (normalize_doi(text) is None and normalize_arxiv_id(text) is None):
                self.add_error("entry", forms.ValidationError(
                    _("Not BibTeX (entries start with @article{…), CSL-JSON, RIS, Web of Science plain text, an arXiv ID "
                      "or a DOI. To add a source by hand, use the form below."),
                    code="unrecognised",
                ))
            cleaned["identifier"] = text.strip()
        return cleaned


def _entry_type_choices() -> list[tuple[str, str]]:
    return [("", "—"), *((name, f"{name} — {label}") for name, label in ENTRY_TYPE_LABELS.items())]


def _lines(fields: dict[str, str]) -> str:
    """A work's other fields as its form shows them: ``name = value``, a line each."""
    return "\n".join(f"{name} = {value}" for name, value in fields.items())


class SourceForm(forms.ModelForm):  # type: ignore[type-arg]
    url = LinkURLFormField(label=_("URL"), max_length=500, required=False, assume_scheme="https")
    # When the source was last saved as the editor saw it: a save by someone else since is a conflict.
    loaded_at = forms.DateTimeField(required=False, widget=forms.HiddenInput)
    opened = OpenedField()

    class Meta:
        model = Source
        fields = [*SOURCE_FIELDS, "entry_type"]
        widgets = {
            "authors": forms.Textarea(attrs={"rows": 2}),
            "abstract": forms.Textarea(attrs={"rows": 6}),
            "notes": forms.Textarea(attrs={"rows": 4}),
        }
        labels = {"url": "URL", "arxiv_id": "arXiv ID", "doi": "DOI", "bibtex_key": _("BibTeX key")}
        help_texts = {"authors": _("Separated by semicolons (or 、): Family, Given; …; an organisation's name in braces, {Google DeepMind}, is kept whole."), "arxiv_id": _("Any form: 2509.21240v2, arXiv:…, an arxiv.org URL."),
                      "doi": _("Bare or as a doi.org URL.")}

    entry_type = forms.ChoiceField(
        label=_("Entry type"), required=False, choices=_entry_type_choices,
        help_text=_("How the work is written in BibTeX and CSL-JSON exports; left empty, its kind decides."),
    )

    extra_fields = forms.CharField(
        label=_("Other fields"), required=False,
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}),
        help_text=_("What the reference file said that the wiki has no place for, one field a line as BibTeX names it: "
                    "keywords = agents, reinforcement learning. Written back in the exports."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.duplicate: Source | None = None
        # Works whose title is close to a new work's, which the editor is asked to tell apart from it.
        self.close_works: list[WorkRef] = []
        if self.instance.pk is None:
            self.fields["different_work"] = forms.BooleanField(
                required=False, label=_("It is a different work"),
                help_text=_("Tick it when the works named above are not this one, and save again."))
        # The work that has the short name typed, when another has it.
        self.name_taken: Source | None = None
        details = self.initial.get("bibliographic") or self.instance.bibliographic or {}
        for name, label in BIBLIOGRAPHIC_FIELDS.items():
            self.fields[BIBLIOGRAPHIC_PREFIX + name] = forms.CharField(
                label=label, required=False, max_length=MAX_BIBLIOGRAPHIC_CHARS, validators=[validate_optional_line])
            self.initial.setdefault(BIBLIOGRAPHIC_PREFIX + name, details.get(name, ""))
        others = self.initial.get("extra_fields", self.instance.extra_fields)
        if isinstance(others, dict):
            self.initial["extra_fields"] = _lines(others)
        remember_opened(self)

    @staticmethod
    def values_of(source: Source) -> dict[str, Any]:
        """The work's fields this form edits as it shows them: its own, each bibliographic detail a field, its other
        fields a line each."""
        values: dict[str, Any] = model_to_dict(source, fields=[*SOURCE_FIELDS, "entry_type"])
        details = source.bibliographic or {}
        values |= {BIBLIOGRAPHIC_PREFIX + name: details.get(name, "") for name in BIBLIOGRAPHIC_FIELDS}
        values["extra_fields"] = _lines(source.extra_fields or {})
        return values

    def main_fields(self) -> list[forms.BoundField]:
        return [field for field in self.visible_fields() if not self._written_back(field.name)
                and (field.name != "different_work" or self.close_works or field.value())]

    def bibliographic_shown(self) -> bool:
        """Whether the bibliographic details open with the form: one of them, or an other field, is filled in or
        wrong."""
        return any(field.value() or field.errors for field in [*self.bibliographic_fields(), self["extra_fields"]])

    def bibliographic_fields(self) -> list[forms.BoundField]:
        """How the work is written back in the exports: its entry type, then pages, volume, publisher and the like,
        each a field of its own, shown together (the other fields after them, a line each)."""
        return [field for field in self.visible_fields() if self._written_back(field.name) and field.name != "extra_fields"]

    @staticmethod
    def _written_back(name: str) -> bool:
        return name in ("entry_type", "extra_fields") or name.startswith(BIBLIOGRAPHIC_PREFIX)

    def clean_extra_fields(self) -> dict[str, str]:
        """``name = value`` a line, read as the work keeps its other fields
        (:func:`~wiki.references.extra_fields.clean_extra_fields`)."""
        values: dict[str, str] = {}
        errors = []
        for number, line in enumerate(str(self.cleaned_data.get("extra_fields") or "").splitlines(), start=1):
            name, equals, value = line.partition("=")
            if not line.strip():
                continue
            if not equals or not name.strip():
                errors.append(forms.ValidationError(
                    _("Line %(line)s is no field: write it as name = value."), code="invalid", params={"line": number}))
            elif name.strip().lower() in values:
                errors.append(forms.ValidationError(
                    _("Line %(line)s gives “%(name)s” again."), code="invalid",
                    params={"line": number, "name": name.strip().lower()}))
            else:
                values[name.strip().lower()] = value.strip()
        if errors:
            raise forms.ValidationError(errors)
        try:
            return kept_extra_fields(values)
        except ValidationError as error:
            raise forms.ValidationError([forms.ValidationError(message, code="invalid")
                                         for message in error.messages]) from None

    def clean_bibtex_key(self) -> str:
        key = str(self.cleaned_data.get("bibtex_key") or "").strip()
        # A work's key from before this rule is kept as long as it is not changed.
        if key != self.instance.bibtex_key:
            validate_bibtex_key(key)
        return key

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        # spacing folded and months read by the work's own rules (Source.clean)
        cleaned["bibliographic"] = {name: value for name in BIBLIOGRAPHIC_FIELDS
                                    if (value := cleaned.get(BIBLIOGRAPHIC_PREFIX + name))}
        if {"arxiv_id", "doi", "url"} <= cleaned.keys():
            # An arxiv.org or doi.org URL names the work as its identifier fields would: saved as them when they are
            # blank, and looked for among the existing works like them.
            cleaned["arxiv_id"], cleaned["doi"] = source_identifiers(arxiv_id=cleaned["arxiv_id"], doi=cleaned["doi"],
                                                                     url=cleaned["url"])
        self._check_short_name(cleaned.get("short_name") or "")
        found = source_find_duplicate(
            arxiv_id=cleaned.get("arxiv_id") or "", doi=cleaned.get("doi") or "", title=cleaned.get("title") or "",
            year=cleaned.get("year"), authors=cleaned.get("authors") or "", exclude_pk=self.instance.pk,
        )
        if found is not None:
            duplicate, reason = cast(Source, found.work), found.reason  # the candidates are sources
            self.duplicate = duplicate
            raise forms.ValidationError(
                gettext("This source exists already (%(reason)s): “%(name)s”. Use it instead of adding a second.")
                % {"reason": reason, "name": duplicate.short_name},
                code="duplicate",
            )
        if self.instance.pk is None and not cleaned.get("different_work") and (title := cleaned.get("title")):
            self.close_works = works_close_to(title)
            if self.close_works:
                raise forms.ValidationError(
                    gettext("A work with a close title exists: %(works)s. Use it instead, or tick “It is a different "
                            "work” and save again.")
                    % {"works": gettext("; ").join(f"“{work.title}” ({work.short_name})" for work in self.close_works)},
                    code="close",
                )
        return cleaned

    def _check_short_name(self, short_name: str) -> None:
        # A work that shares its name from before this rule keeps it; a name typed anew must be the work's own.
        if not short_name or (self.instance.pk is not None
                              and short_name_key(short_name) == short_name_key(self.instance.short_name)):
            return
        holder = source_named(short_name, exclude_pk=self.instance.pk)
        if holder is not None:
            self.name_taken = holder
            self.add_error("short_name", forms.ValidationError(
                gettext("Another work is called “%(name)s” already (%(title)s): pages cite works by their short name, "
                        "so give this one a name of its own, such as with its year or what sets it apart.")
                % {"name": holder.short_name, "title": holder.title},
                code="duplicate",
            ))

    def _post_clean(self) -> None:
        # Uniqueness of arXiv ID and DOI is reported by clean() with a link to the existing source.
        if self.duplicate is not None:
            return
        self.instance.slug = self.instance.slug or "unsaved"
        super()._post_clean()  # type: ignore[misc]  # ModelForm's model validation step, absent from the stubs


class _UpdatedFields(forms.MultipleChoiceField):
    """The names of fields an import offers (wiki.references.updates): a work's own, its bibliographic details and
    ``extra_fields.<name>`` for each of its other fields, which no list of choices holds."""

    def valid_value(self, value: Any) -> bool:
        return is_updatable(str(value))


class TakeUpdatesForm(forms.Form):
    """The fields an import offered for a work in the wiki that the editor ticked (``field``), each with the value the
    file gave (``value-<field>``), when the work was last saved as the import found it, and the import (whose undo
    gives the fields back)."""

    field = _UpdatedFields(required=False)
    loaded_at = forms.DateTimeField(required=False, widget=forms.HiddenInput)
    source_import = forms.ModelChoiceField(queryset=SourceImport.objects.all(), required=False, widget=forms.HiddenInput)

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        cleaned["values"] = {name: str(self.data.get(f"value-{name}", "")) for name in cleaned.get("field", [])}
        return cleaned
