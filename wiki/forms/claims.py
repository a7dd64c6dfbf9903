from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from wiki.forms.opened import OpenedField
from wiki.forms.pickers import WorkChoiceField, WorkMultipleChoiceField, works_named
from wiki.forms.widgets import ChoicesInTheirLanguage
from wiki.models import CitationKind, Claim, ClaimStatus, Source
from wiki.models.rules import max_length
from wiki.references.locators import is_valid_locator, locator_key


class ClaimForm(forms.Form):
    status = forms.ChoiceField(choices=ClaimStatus.choices)
    about = WorkMultipleChoiceField(required=False, label=_("Works it is about"))
    # When the claim was last saved as the editor saw it: a save by someone else since is a conflict.
    loaded_at = forms.DateTimeField(required=False, widget=forms.HiddenInput)
    opened = OpenedField()
    opened_citations = OpenedField()  # the citations' rows (wiki.forms.opened_citations)

    @staticmethod
    def values_of(claim: Claim) -> dict[str, Any]:
        """The claim's fields this form edits (its citations are the formset's)."""
        return {"status": claim.status, "about": list(claim.about.all())}


class CitationForm(forms.Form):
    source = WorkChoiceField()
    locator = forms.CharField(max_length=200, required=False, strip=True, help_text=_("p.3, pp.3-4, §3.1, Table 2…"))
    kind = forms.ChoiceField(choices=CitationKind.choices, initial=CitationKind.CITED)

    def __init__(self, *args: Any, works: Mapping[str, list[Source]] | None = None, **kwargs: Any) -> None:
        """``works``: the works the names sent designate, looked up already (see :func:`works_named`)."""
        super().__init__(*args, **kwargs)
        self.fields["source"].known = works  # type: ignore[attr-defined]

    def clean_locator(self) -> str:
        # Kept exactly as typed once valid: the wiki shows locators the way the editor wrote them.
        locator: str = self.cleaned_data["locator"]
        if locator and not is_valid_locator(locator):
            raise forms.ValidationError(
                _("“%(locator)s” is not a locator (p.3, pp.3-4, §3.1, §2.4、§3, Table 2, Fig. 3, Appendix B)."),
                code="invalid_locator", params={"locator": locator},
            )
        return locator


class BaseCitationFormSet(forms.BaseFormSet):  # type: ignore[type-arg]
    default_error_messages = {
        "too_many_forms": _("A claim has at most %(num)d citations: drop some, or split the claim."),
    }
    _works: dict[str, list[Source]] | None = None

    def get_form_kwargs(self, index: int | None) -> dict[str, Any]:
        return {**super().get_form_kwargs(index), "works": self.works_typed()}

    def works_typed(self) -> dict[str, list[Source]] | None:
        """The works every row names, looked up at once whatever the number of rows (None before any is sent)."""
        if not self.is_bound:
            return None
        if self._works is None:
            names = [name for n in range(self.total_form_count())
                     for name in WorkChoiceField().names(self.data.get(f"{self.add_prefix(n)}-source"))]
            self._works = works_named(names)
        return self._works

    def clean(self) -> None:
        if any(self.errors):
            return
        seen: set[tuple[int, str]] = set()
        for form in self.forms:
            data: dict[str, Any] = form.cleaned_data
            if not data or data.get("DELETE"):
                continue
            key = (data["source"].pk, locator_key(data["locator"]))
            if key in seen:
                raise forms.ValidationError(_("The same source and locator are cited twice."), code="duplicate_citation")
            seen.add(key)


CitationFormSet = forms.formset_factory(CitationForm, formset=BaseCitationFormSet, extra=1, can_delete=True, max_num=50,
                                        validate_max=True)


class SentenceChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]
    widget = ChoicesInTheirLanguage

    def label_from_instance(self, obj: Claim) -> str:
        text = obj.text if len(obj.text) <= 140 else obj.text[:139] + "…"
        return f"#{obj.pk} · {obj.section} · {text}" if obj.section else f"#{obj.pk} · {text}"


class ClaimReattachForm(forms.Form):
    """Which sentence (a current claim of ``page_id``) an orphaned claim becomes."""

    sentence = SentenceChoiceField(queryset=Claim.objects.none(), label=_("Sentence"),
                                   help_text=_("Its own claim gives way: its questions and contrasts move to this claim."))

    def __init__(self, *args: Any, page_id: int | None = None, **kwargs: Any) -> None:
        """Offers the sentences of ``page_id``; without it, accepts a sentence of any page."""
        super().__init__(*args, **kwargs)
        field: forms.ModelChoiceField = self.fields["sentence"]  # type: ignore[type-arg, assignment]
        field.queryset = Claim.objects.sentences_of(page_id) if page_id else Claim.objects.current()


class ClaimRetireForm(forms.Form):
    reason = forms.CharField(max_length=max_length(Claim, "retired_reason"), strip=True, widget=forms.TextInput(attrs={"size": 60}),
                             error_messages={"required": _("Say why the claim is retired.")},
                             help_text=_("Why this claim is not kept (e.g. “withdrawn: the paper was retracted”)."))
