from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Q
from django.http import QueryDict
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from wiki.forms.claim_choices import claim_label
from wiki.forms.opened import OpenedField, remember_opened
from wiki.forms.pickers import WorkChoiceField, works_named
from wiki.forms.widgets import ChoicesInTheirLanguage
from wiki.models import Claim, Component, Contrast, Source
from wiki.services.contrasts import contrast_check_sides, contrast_find

SIDES = ("left", "right")


def contrast_exists_message(contrast: Contrast) -> SafeString:
    """That the two sides are contrasted already, linking the contrast's page (its sides loaded with it)."""
    link = format_html('<a href="{}">{}</a>', contrast.get_absolute_url(), contrast.label)
    return format_html(gettext("This contrast exists already (perhaps the other way round): {contrast}."), contrast=link)


class ContrastForm(forms.Form):
    """Two works (or components of them) and what they differ on. The components and evidence claims offered are those
    of the works chosen (as sent, else as the form opened with): a wiki holds too many to list them all."""

    left = WorkChoiceField(label=_("One work"))
    left_component = forms.ModelChoiceField(queryset=Component.objects.none(), required=False,
                                            label=_("…or one of its components"), widget=ChoicesInTheirLanguage)
    right = WorkChoiceField(label=_("The other work"))
    right_component = forms.ModelChoiceField(queryset=Component.objects.none(), required=False,
                                             label=_("…or one of its components"), widget=ChoicesInTheirLanguage)
    axis = forms.CharField(max_length=300, label=_("What they differ on"), help_text=_("What they differ on, e.g. “policy update vs external harness evolution”."))
    claim = forms.ModelChoiceField(queryset=Claim.objects.none(), required=False, label=_("Evidence claim"),
                                   widget=ChoicesInTheirLanguage)

    fields: dict[str, Any]  # the component and claim fields' querysets and labels are set by __init__

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        works = self.chosen_works()
        chosen = [work.pk for work in works.values()]
        for side in SIDES:
            self.fields[f"{side}_component"].queryset = (
                Component.objects.filter(source_id__in=chosen).select_related("source").order_by(
                    "source__name_sort", "source_id", "name_sort", "pk"))
        self.fields["claim"].queryset = (
            Claim.objects.current().about_or_citing(chosen).select_related("page").in_page_order()
            if chosen else Claim.objects.none())
        self.fields["claim"].label_from_instance = claim_label
        self.fields["claim"].help_text = (
            _("The current claims that cite either work or are about it.") if chosen else
            _("Choose the two works first (and press “Show the works' components and claims”): the claims offered are "
              "those that cite either work or are about it."))
        if not self.is_bound:
            # A link may name a work by its id (?left=12): the input shows its slug.
            self.initial.update(works)

    @classmethod
    def shown_again(cls, data: QueryDict) -> ContrastForm:
        """The form as sent, not saved and without errors, offering the components and claims of the works typed in
        it."""
        form = cls(initial={name: data.get(name) for name in cls.base_fields if name in data})
        # The page comes back at the top: the editor goes on where the choices were filled in.
        form.fields["left_component"].widget.attrs["autofocus"] = True
        return form

    def chosen_works(self) -> dict[str, Source]:
        """The works the form is about, by side: those sent, else those it opened with (a work, its slug, short name
        or id). A side naming no work, or several, has none. One query."""
        raw: dict[str, Any] = {}
        for side in SIDES:
            raw[side] = self.data.get(self.add_prefix(side)) if self.is_bound else self.initial.get(side)
        if not self.is_bound and all(isinstance(value, Source) or not value for value in raw.values()):
            return {side: value for side, value in raw.items() if isinstance(value, Source)}
        texts = {side: str(value.slug if isinstance(value, Source) else value or "").strip() for side, value in raw.items()}
        pks = [int(text) for text in texts.values() if text.isdigit()] if not self.is_bound else []
        found = works_named([text for text in texts.values() if text], pks=pks)
        works: dict[str, Source] = {}
        for side, text in texts.items():
            matches = found.get(text.lower(), [])
            if len(matches) == 1:
                works[side] = matches[0]
        return works

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        for side in SIDES:
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
        existing = contrast_find(left=left, left_component=cleaned.get("left_component"), right=right,
                                 right_component=cleaned.get("right_component"))
        if existing is not None:
            raise forms.ValidationError(contrast_exists_message(existing), code="exists")
        return cleaned


class ContrastEditForm(forms.Form):
    """What a contrast says its works differ on and the claim that says so: the claims offered are those that cite
    either work or are about it (and the one it rests on now)."""

    # When the contrast was last saved as the editor saw it: a save by someone else since is a conflict.
    loaded_at = forms.DateTimeField(required=False, widget=forms.HiddenInput)
    axis = forms.CharField(max_length=300, label=_("What they differ on"),
                           help_text=_("What they differ on, e.g. “policy update vs external harness evolution”."))
    claim = forms.ModelChoiceField(queryset=Claim.objects.none(), required=False, label=_("Evidence claim"),
                                   widget=ChoicesInTheirLanguage)
    opened = OpenedField()

    fields: dict[str, Any]  # the claim field's queryset and labels are set by __init__

    def __init__(self, *args: Any, contrast: Contrast, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        remember_opened(self, contrast)
        now = Q(pk=contrast.claim_id) if contrast.claim_id else Q(pk__in=[])
        claims = Claim.objects.current().about_or_citing([contrast.left_id, contrast.right_id])
        self.fields["claim"].queryset = (Claim.objects.filter(Q(pk__in=claims.values("pk")) | now)
                                         .select_related("page").in_page_order())
        self.fields["claim"].label_from_instance = claim_label
        self.fields["claim"].help_text = _("The current claims that cite either work or are about it.")

    @classmethod
    def of(cls, contrast: Contrast) -> ContrastEditForm:
        return cls(contrast=contrast, initial={"axis": contrast.axis, "claim": contrast.claim_id,
                                               "loaded_at": contrast.updated_at.isoformat()})


class ContrastDeleteForm(forms.Form):
    loaded_at = forms.DateTimeField(required=False, widget=forms.HiddenInput)
