"""Cue hits → unordered features with their evidence spans.

The lexicon's cues detect phrases; here each hit becomes a named feature
that says what kind of phrase it was and in which reading it occurred:
the work's own statement, under negation, under comparison ("outperforms
PPO"), or in a sentence about other work. Features carry no weights; the
fitted model (``classifier.model``) weighs them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from classifier.lexicon.cue import Cue, CueRole
from classifier.negation import Negation, Reach
from classifier.result import Span
from classifier.taxonomy import Fact, Mechanism

# The lexicon marks how specific a cue is ("GRPO" names an objective, "framework" hints);
# the tier keeps that as a feature of its own, never as a weight.
STRONG, MEDIUM, WEAK, FAINT = "strong", "medium", "weak", "faint"


def tier(weight: float) -> str:
    weight = abs(weight)
    if weight >= 3.0:
        return STRONG
    if weight >= 2.0:
        return MEDIUM
    if weight >= 1.0:
        return WEAK
    return FAINT


@dataclass(frozen=True)
class Hit:
    """A cue found in the working text and the reading it sits in."""

    start: int
    end: int
    cue: Cue
    negation: Negation | None
    background: bool = False

    @property
    def reading(self) -> str:
        if self.negation is not None:
            return "cmp" if self.negation.reach is Reach.COMPARED else "neg"
        return "bg" if self.background else "own"


@dataclass
class Features:
    """Feature values (counts, log-scaled) and the hits behind each."""

    counts: dict[str, float] = field(default_factory=dict)
    hits: dict[str, list[Hit]] = field(default_factory=dict)

    def add(self, name: str, hit: Hit | None = None) -> None:
        self.counts[name] = self.counts.get(name, 0.0) + 1.0
        if hit is not None:
            self.hits.setdefault(name, []).append(hit)

    def values(self) -> dict[str, float]:
        return {name: math.log1p(count) for name, count in self.counts.items()}

    def evidence_for(self, fact: Fact) -> bool:
        prefix = f"f:{fact.value}:"
        return any(name.startswith(prefix) and not name.endswith(":cmp") for name in self.counts)


def mechanism_feature(mechanism: Mechanism, weight: float, reading: str) -> str:
    return f"m:{mechanism.value}:{tier(weight)}:{reading}"


def fact_feature(fact: Fact, weight: float, reading: str) -> str:
    sign = "+" if weight > 0 else "-"
    return f"f:{fact.value}:{sign}{tier(weight)}:{reading}"


def extract(hits: Iterable[Hit]) -> Features:
    """The features of a text's cue hits (in text order)."""
    features = Features()
    ordered = list(hits)
    for hit in ordered:
        cue = hit.cue
        if cue.mechanism is not None and cue.weight:
            features.add(mechanism_feature(cue.mechanism, cue.weight, hit.reading), hit)
        if not (cue.role is CueRole.ASSERT and hit.negation is not None):
            for fact, weight in cue.facts:
                features.add(fact_feature(fact, weight, hit.reading), hit)
        if cue.narrow and hit.negation is None:
            features.add("narrow", hit)
        if cue.role is CueRole.FROZEN and hit.negation is None:
            features.add("frozen", hit)
    named = [h for h in ordered if h.cue.algorithm and h.cue.mechanism and h.reading == "own"]
    first = named[0] if named else None
    # An RL or preference objective named after an SFT stage is the method ("SFT, then GRPO").
    if first is not None and first.cue.mechanism is Mechanism.SFT_DISTILLATION:
        first = next((h for h in named if h.cue.mechanism in RL_LIKE), first)
    if first is not None and first.cue.mechanism is not None:
        features.add(f"algo:{first.cue.mechanism.value}", first)
    return features


RL_LIKE = frozenset({Mechanism.POLICY_GRADIENT, Mechanism.PREFERENCE_OPTIMIZATION})


def span_of(text: str, hit: Hit, decides: str, contribution: float = 0.0) -> Span:
    return Span(hit.start, hit.end, text[hit.start:hit.end], decides, hit.negation is not None, contribution)
