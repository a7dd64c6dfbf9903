"""Widgets the wiki's forms share."""

from __future__ import annotations

from typing import Any

from django import forms


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
