"""The taxonomy's labels in the reader's language.

Mechanism labels come from the classifier's records, which hold both languages (adding a mechanism stays one
record); verdict and rubric-fact labels are translated through the catalogues. Every label here is lazy, so
choices built at import time still read in the language of the request that shows them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import lazy
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from classifier.result import Suggestion
from classifier.taxonomy import Fact, Mechanism, Verdict

VERDICT_LABELS = {
    Verdict.STRICT: _("Strict Agentic RL"),
    Verdict.STRICT_NARROW: _("Strict (narrow)"),
    Verdict.ADJACENT: _("Adjacent"),
    Verdict.NOT_STRICT: _("Not strict"),
}

FACT_LABELS = {
    Fact.INTERACTIVE_ENV: _("Executable agent interacting with an environment, tools or a browser"),
    Fact.MULTI_STEP: _("Multi-step or tool-use trajectories"),
    Fact.VERIFIABLE_REWARD: _("Verifiable or scalar reward"),
    Fact.RL_UPDATE: _("RL optimisation updates the policy/parameters from the interaction outcome"),
}


def _chinese() -> bool:
    return (get_language() or "").startswith("zh")


def _mechanism_text(value: str) -> str:
    mechanism = Mechanism(value)
    return mechanism.label_zh if _chinese() else mechanism.label


_mechanism_lazy = lazy(_mechanism_text, str)


def mechanism_label(value: str | Mechanism) -> str:
    """The mechanism's label in the active language; an unknown key as it is."""
    try:
        return _mechanism_text(Mechanism(value).value)
    except ValueError:
        return str(value)


def suggestion_rationale(suggestion: Suggestion) -> str:
    """The suggestion's one-line reason in the reader's language, whatever the language of the text it read."""
    return suggestion.rationale_in(chinese=_chinese())


def mechanism_colour(value: str | Mechanism) -> str:
    """The colour the mechanism's record gives its works in graphs; empty for an unknown key."""
    try:
        return Mechanism(value).colour
    except ValueError:
        return ""


def verdict_label(value: str | Verdict) -> str:
    try:
        return str(VERDICT_LABELS[Verdict(value)])
    except ValueError:
        return str(value)


def fact_label(value: str | Fact) -> str:
    return str(FACT_LABELS[Fact(value)])


@dataclass(frozen=True)
class LabelledValue:
    """A mechanism or verdict as a template shows it: its key, its label in the active language and, for a
    mechanism, its record's colour."""

    value: str
    label: str
    colour: str = ""


def mechanisms_shown() -> list[LabelledValue]:
    return [LabelledValue(m.value, mechanism_label(m), m.colour) for m in Mechanism]


def verdicts_shown() -> list[LabelledValue]:
    return [LabelledValue(v.value, verdict_label(v)) for v in Verdict]


MECHANISM_CHOICES = [(m.value, _mechanism_lazy(m.value)) for m in Mechanism]
VERDICT_CHOICES = [(v.value, VERDICT_LABELS[v]) for v in Verdict]
