from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from wiki.forms.opened import OpenedField, remember_opened
from wiki.forms.pickers import one_page_named
from wiki.models import GlossaryTerm, Page
from wiki.models.rules import validate_line
from wiki.services.glossary import NAME_FIELDS, glossary_check_names, glossary_slug

GLOSSARY_FIELDS = ["slug", "name_zh", "name_en", "aliases_zh", "aliases_en", "definition_zh", "definition_en",
                   "mechanism", "verdict", "fact"]
# Aliases are typed one a line, or separated by commas or the Chinese list marks.
_ALIAS_SEPARATORS = re.compile(r"[\n,，、;；]")


def split_aliases(text: str) -> list[str]:
    return [alias.strip() for alias in _ALIAS_SEPARATORS.split(text) if alias.strip()]


class AliasesField(forms.CharField):
    widget = forms.Textarea(attrs={"rows": 3})

    def prepare_value(self, value: Any) -> Any:
        return "\n".join(value) if isinstance(value, list) else value

    def to_python(self, value: Any) -> list[str]:  # type: ignore[override]  # a list, where CharField returns text
        return split_aliases(str(super().to_python(value)))

    def run_validators(self, value: Any) -> None:
        # Each alias is a name, with a name's rules (the list itself is no text to check), before any is looked up.
        errors: list[ValidationError] = []
        for alias in value:
            try:
                validate_line(alias)
            except ValidationError as error:
                errors.extend(error.error_list)
        if errors:
            raise ValidationError(errors[:1])


class GlossaryTermForm(forms.ModelForm):  # type: ignore[type-arg]
    """A term's names and definition. That no name belongs to two terms is checked here, and again by the service
    under a lock."""

    aliases_zh = AliasesField(label=_("Chinese aliases"), required=False, help_text=_("One a line, or separated by commas or 、."))
    aliases_en = AliasesField(label=_("English aliases and abbreviations"), required=False,
                              help_text=_("One a line, or separated by commas: PG, policy-gradient RL."))
    page_slug = forms.CharField(label=_("Defining page"), required=False, max_length=200,
                                help_text=_("The address or title of the wiki page that defines the term, if there is one."))
    # When the term was last saved as the editor saw it: a save by someone else since is a conflict.
    loaded_at = forms.DateTimeField(required=False, widget=forms.HiddenInput)
    opened = OpenedField()

    class Meta:
        model = GlossaryTerm
        fields = GLOSSARY_FIELDS
        widgets = {"definition_zh": forms.Textarea(attrs={"rows": 4}), "definition_en": forms.Textarea(attrs={"rows": 4})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["slug"].disabled = True
            if self.instance.page_id and "page_slug" not in self.initial:
                self.initial["page_slug"] = self.instance.page.slug
        else:
            self.fields["slug"].required = False
            self.fields["slug"].help_text = _("Latin letters, digits and hyphens: the address of its entry. Left empty, "
                                              "it is made from the English name, or from the Chinese one in pinyin.")
        remember_opened(self)

    def clean_page_slug(self) -> Page | None:
        typed = self.cleaned_data["page_slug"].strip()
        if not typed:
            return None
        page = one_page_named(typed)
        if page is None:
            raise forms.ValidationError(_("There is no page “%(page)s”."), code="no_page", params={"page": typed})
        return page

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        if not self.instance.pk and not cleaned.get("slug") and "slug" not in self.errors:
            cleaned["slug"] = glossary_slug(name_en=cleaned.get("name_en") or "", name_zh=cleaned.get("name_zh") or "")
            if not cleaned["slug"]:
                self.add_error("slug", forms.ValidationError(_("Give the term an address: its names give none."), code="required"))
        names = {name: cleaned.get(name) or ([] if name.startswith("aliases") else "") for name in NAME_FIELDS}
        try:
            glossary_check_names(GlossaryTerm(pk=self.instance.pk, slug=cleaned.get("slug") or self.instance.slug, **names))
        except ValidationError as error:
            self.add_error(None, error)
        return cleaned

    def term_fields(self) -> dict[str, Any]:
        fields = {name: self.cleaned_data[name] for name in GLOSSARY_FIELDS if name != "slug" or not self.instance.pk}
        fields["page"] = self.cleaned_data["page_slug"]
        return fields
