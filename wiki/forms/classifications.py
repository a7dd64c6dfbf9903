from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from classifier.taxonomy import Mechanism, Verdict, rubric_verdict
from wiki.forms.claim_choices import claim_label
from wiki.forms.opened import OpenedField, remember_opened
from wiki.forms.widgets import ChoicesInTheirLanguage
from wiki.models import Claim, Classification, Component, Source
from wiki.models.rules import validate_line
from wiki.references.locators import is_valid_locator
from wiki.taxonomy import verdict_label

FACT_FIELDS = ("interactive_env", "multi_step", "verifiable_reward", "rl_update")


def rubric_labels() -> dict[str, str]:
    """Each verdict's label in the reader's language, by key (the form's script shows what the rubric gives)."""
    return {verdict.value: verdict_label(verdict) for verdict in Verdict}


# What a fact's radio buttons submit; the model stores True, False and None (unknown).
FACT_VALUES = {True: "true", False: "false", None: "unknown"}


class FactChoice(forms.RadioSelect):
    """A rubric fact as three radio buttons: yes, no, unknown (the default: nothing said either way)."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs, choices=[("true", _("yes")), ("false", _("no")), ("unknown", _("unknown"))])

    def format_value(self, value: Any) -> list[str]:
        if isinstance(value, str):
            value = {"true": True, "True": True, "false": False, "False": False}.get(value)
        return [FACT_VALUES.get(value, "unknown")]


class ClassificationForm(forms.ModelForm):  # type: ignore[type-arg]
    # When the classification was last saved as the editor saw it: a save by someone else since is a conflict.
    loaded_at = forms.DateTimeField(required=False, widget=forms.HiddenInput)
    opened = OpenedField()
    # A part of the work not classified apart before, added with this classification (a new classification only).
    new_component = forms.CharField(
        max_length=200, required=False, validators=[validate_line], label=_("…or a new component of it"),
        help_text=_("To classify a part of the work apart (Shepherd's “Tree-GRPO”), name it here; it is added to the "
                    "work with this classification."))

    fields: dict[str, Any]  # model choice fields among them, whose querysets and labels __init__ sets by name

    class Meta:
        model = Classification
        fields = [
            "component", "mechanism", "algorithm", "updated", *FACT_FIELDS, "narrow", "verdict", "rationale",
            "evidence_claim", "evidence_locator",
        ]
        widgets = {"rationale": forms.Textarea(attrs={"rows": 4}), "evidence_claim": ChoicesInTheirLanguage(),
                   **{name: FactChoice() for name in FACT_FIELDS}}

    def __init__(self, *args: Any, source: Source, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.source = source
        # The model's own rules (Classification.clean: one per work, a rationale for a verdict other than the
        # rubric's) need the work; the form's model validation step runs them.
        if self.instance.source_id is None:
            self.instance.source = source
        self.fields["component"].queryset = Component.objects.filter(source=source)
        self.fields["component"].required = False
        self.fields["component"].empty_label = _("The whole work")
        if self.instance.pk is not None:
            self.fields["component"].disabled = True
            del self.fields["new_component"]
        self.fields["evidence_claim"].queryset = (
            Claim.objects.current().filter(about=source).select_related("page").in_page_order().distinct()
        )
        self.fields["evidence_claim"].label_from_instance = claim_label
        self.fields["evidence_claim"].required = False
        remember_opened(self)

    def clean_evidence_locator(self) -> str:
        locator: str = self.cleaned_data["evidence_locator"].strip()
        if locator and not is_valid_locator(locator):
            raise forms.ValidationError(
                _("“%(locator)s” is not a locator (p.3, pp.3-4, §3.1, §2.4、§3, Table 2, Fig. 3, Appendix B)."), code="invalid_locator",
                params={"locator": locator},
            )
        return locator

    def rubric(self) -> str | None:
        """The verdict the rubric gives for the submitted (or initial) facts.

        Computed on the server so that it shows without JavaScript too: after “Accept suggestion”, and after a
        submission with errors. ``None`` only while the verdict still depends on a mechanism not chosen yet.
        """
        if hasattr(self, "cleaned_data"):
            values: dict[str, Any] = {name: self.cleaned_data.get(name) for name in (*FACT_FIELDS, "narrow", "mechanism")}
        elif self.initial and any(name in self.initial for name in FACT_FIELDS):
            values = {name: self.initial.get(name) for name in (*FACT_FIELDS, "narrow", "mechanism")}
        elif self.instance.pk is not None:
            verdict: str = self.instance.rubric_verdict.value
            return verdict
        else:
            return None
        facts = {name: _fact(values.get(name)) for name in FACT_FIELDS}
        mechanism = values.get("mechanism")
        if mechanism not in {m.value for m in Mechanism}:
            # Only evolution strategies turn the interaction facts without an RL update into "adjacent".
            if all(facts[name] is True for name in FACT_FIELDS[:3]) and facts["rl_update"] is not True:
                return None
            mechanism = Mechanism.POLICY_GRADIENT
        return rubric_verdict(**facts, mechanism=Mechanism(mechanism), narrow=bool(values.get("narrow"))).value


def _fact(value: Any) -> bool | None:
    """A fact from cleaned data (``True``/``False``/``None``) or initial data (the same, or what the radio buttons submit)."""
    if isinstance(value, str):
        return {"true": True, "false": False}.get(value.lower())
    return None if value is None else bool(value)
