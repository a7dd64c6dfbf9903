from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from wiki.models import Claim, Component, Source
from wiki.services.contrasts import contrast_check_sides, contrast_find


class ContrastForm(forms.Form):
    left = forms.ModelChoiceField(queryset=Source.objects.only("id", "short_name").order_by("short_name"), label=_("One work"))
    left_component = forms.ModelChoiceField(queryset=Component.objects.select_related("source"), required=False,
                                            label=_("…or one of its components"))
    right = forms.ModelChoiceField(queryset=Source.objects.only("id", "short_name").order_by("short_name"), label=_("The other work"))
    right_component = forms.ModelChoiceField(queryset=Component.objects.select_related("source"), required=False,
                                             label=_("…or one of its components"))
    axis = forms.CharField(max_length=300, label=_("What they differ on"), help_text=_("What they differ on, e.g. “policy update vs external harness evolution”."))
    claim = forms.ModelChoiceField(
        queryset=Claim.objects.current().select_related("page").order_by("page__title", "position"), required=False,
        label=_("Evidence claim"),
    )

    fields: dict[str, Any]  # the claim field's labels are set by __init__

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["claim"].label_from_instance = lambda claim: f"{claim.page.title}: {claim.text[:90]}"

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        for side in ("left", "right"):
            component = cleaned.get(f"{side}_component")
            if component is not None and cleaned.get(side) is not None and component.source_id != cleaned[side].pk:
                self.add_error(f"{side}_component", forms.ValidationError(
                    _("“%(component)s” is a component of %(owner)s, not of %(work)s."),
                    code="component_mismatch",
                    params={"component": component.name, "owner": component.source.short_name, "work": cleaned[side].short_name}))
        if self.errors:
            return cleaned
        left, right = cleaned.get("left"), cleaned.get("right")
        if left is not None and left == right and cleaned.get("left_component") == cleaned.get("right_component"):
            raise forms.ValidationError(_("A work cannot be contrasted with itself; pick two works or two components."), code="same")
        if left is not None and right is not None:
            contrast_check_sides(left=left, right=right, left_component=cleaned.get("left_component"),
                                 right_component=cleaned.get("right_component"))
        if contrast_find(left=left, left_component=cleaned.get("left_component"), right=right,
                         right_component=cleaned.get("right_component")) is not None:
            raise forms.ValidationError(_("This contrast exists already (perhaps the other way round)."), code="exists")
        return cleaned
