"""Widgets the wiki's forms share."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.html import format_html

from wiki.text.lang import content_lang


class CheckboxList(forms.CheckboxSelectMultiple):
    """Checkboxes, one a choice, of which only the first takes the focus when the list is given ``autofocus``:
    Django copies a choice widget's attributes to every option, and a page whose every checkbox claims the focus has
    it land on the last one, at the bottom of the list."""

    def create_option(self, name: str, value: Any, label: Any, selected: Any, index: int, subindex: int | None = None,
                      attrs: dict[str, Any] | None = None) -> dict[str, Any]:
        option: dict[str, Any] = super().create_option(name, value, label, selected, index, subindex=subindex, attrs=attrs)
        if index or subindex:
            option["attrs"].pop("autofocus", None)
        return option


class ChoicesInTheirLanguage(forms.Select):
    """A list whose choices each carry the ``lang`` of their own text: a claim or a language's own name (简体中文)
    read by a screen reader in the voice it is written for, whatever the interface's language (WCAG 3.1.2)."""

    def create_option(self, name: str, value: Any, label: Any, selected: Any, index: int, subindex: int | None = None,
                      attrs: dict[str, Any] | None = None) -> dict[str, Any]:
        option: dict[str, Any] = super().create_option(name, value, label, selected, index, subindex=subindex, attrs=attrs)
        if value not in ("", None):
            option["attrs"]["lang"] = content_lang(label)
        return option


class CheckboxListInTheirLanguage(CheckboxList):
    """:class:`CheckboxList` whose labels each carry the ``lang`` of their own text, as
    :class:`ChoicesInTheirLanguage` does for a list; the ``lang`` is on the label's text, which names the box."""

    def create_option(self, name: str, value: Any, label: Any, selected: Any, index: int, subindex: int | None = None,
                      attrs: dict[str, Any] | None = None) -> dict[str, Any]:
        option = super().create_option(name, value, label, selected, index, subindex=subindex, attrs=attrs)
        option["label"] = format_html('<span lang="{}">{}</span>', content_lang(label), label)
        return option
