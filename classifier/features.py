"""Cue hits → unordered features with their evidence spans.

The lexicon's cues detect phrases; here each hit becomes a named feature
that says what kind of phrase it was and in which reading it occurred:
the work's own statement, under negation, under comparison ("outperforms
PPO"), or in a sentence about other work. Features carry no weights; the
fitted model (``classifier.model``) weighs them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from classifier.lexicon.cue import Cue, CueRole
from classifier.negation import Negation, Reach
from classifier.result import Span
from classifier.taxonomy import Fact, Mechanism

if TYPE_CHECKING:
    from classifier.model import Reading

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


class Hit(NamedTuple):
    """A cue found in the working text and the reading it sits in (a named tuple: a text has dozens)."""

    start: int
    end: int
    cue: Cue
    negation: Negation | None
    background: bool = False
    # In a sentence where the work describes itself ("we propose", "X 是一个…框架").
    lead: bool = False

    @property
    def reading(self) -> str:
        if self.negation is not None:
            return "cmp" if self.negation.reach is Reach.COMPARED else "neg"
        return "bg" if self.background else "own"


@dataclass
class Features:
    """Feature values (counts, log-scaled) and the hits behind each.

    ``words`` holds the word features (``w:…``) with where each first occurs.
    """

    counts: dict[str, float] = field(default_factory=dict)
    hits: dict[str, list[Hit]] = field(default_factory=dict)
    words: dict[str, tuple[int, int]] = field(default_factory=dict)

    def add(self, name: str, hit: Hit | None = None) -> None:
        self.counts[name] = self.counts.get(name, 0.0) + 1.0
        if hit is not None:
            self.hits.setdefault(name, []).append(hit)

    def values(self) -> dict[str, float]:
        out = dict(zip(self.counts, map(math.log1p, self.counts.values()), strict=True))
        if WORD_SCALE != 1.0:
            for name in self.words:
                out[name] *= WORD_SCALE
        return out

    def hits_by_fact(self) -> dict[str, list[tuple[str, list[Hit]]]]:
        """Each fact's cue features (``fact_feature``'s names) with their hits, by the fact's value."""
        grouped: dict[str, list[tuple[str, list[Hit]]]] = {}
        for name, hits in self.hits.items():
            if name.startswith("f:"):
                grouped.setdefault(name.split(":", 2)[1], []).append((name, hits))
        return grouped


# A tier's strength as the lexicon declares it, for reading a cue without fitted weights.
TIER_STRENGTH = {STRONG: 3.0, MEDIUM: 2.0, WEAK: 1.0, FAINT: 0.5}


def declared(name: str, hit: Hit) -> float:
    """What one hit of a fact's cue feature ``name`` says of the fact as the lexicon declares it: the cue's sign
    and tier. Negated, only a cue of the fact itself says the opposite ("no reward"); a mechanism cue that
    implies the fact says nothing of it when negated ("not an RL method" leaves the reward open). A cue under a
    comparison or in a sentence about other work says nothing of this one."""
    _, _, strength, reading = name.split(":")
    sign = (1.0 if strength.startswith("+") else -1.0) * TIER_STRENGTH[strength[1:]]
    if reading == "own":
        return sign
    return -sign if reading == "neg" and hit.cue.mechanism is None else 0.0


def speaks_to(fact_hits: list[tuple[str, list[Hit]]], reading: Reading, row: list[float], *, true: bool) -> bool:
    """Whether a fact's cue features (one entry of ``Features.hits_by_fact``) are evidence for its value being
    ``true`` (or false): a cue that weighed that way in ``row`` (each feature's contribution to the fact's being
    true), and not one under a comparison ("outperforms PPO"). A negated cue ("no reward") is evidence for
    false only: when words outweigh it, the fact's value rests on no cue."""
    return any(
        not name.endswith(":cmp") and (reading.weight_of(row, name) > 0) == true for name, _ in fact_hits
    )


def mechanism_feature(mechanism: Mechanism, weight: float, reading: str) -> str:
    return f"m:{mechanism.value}:{tier(weight)}:{reading}"


def fact_feature(fact: Fact, weight: float, reading: str) -> str:
    sign = "+" if weight > 0 else "-"
    return f"f:{fact.value}:{sign}{tier(weight)}:{reading}"


@cache
def _cue_features(cue: Cue, reading: str) -> tuple[str | None, tuple[str, ...]]:
    """The names of the mechanism feature (if any) and the fact features a hit of ``cue`` in ``reading`` adds:
    the same for every hit of a cue, so named once."""
    mechanism = mechanism_feature(cue.mechanism, cue.weight, reading) if cue.mechanism and cue.weight else None
    return mechanism, tuple(fact_feature(fact, weight, reading) for fact, weight in cue.facts)


def extract(hits: Iterable[Hit], *, chinese: bool = False) -> Features:
    """The features of a text's cue hits (in text order).

    Besides each cue's own feature, a mechanism cue in the sentence where the
    work describes itself adds ``lead:<mechanism>``, and in a Chinese text
    ``zh:<mechanism>``, so that the weights can differ by language.
    """
    features = Features()
    ordered = list(hits)
    for hit in ordered:
        cue = hit.cue
        reading = hit.reading
        mechanism, facts = _cue_features(cue, reading)
        if mechanism is not None and cue.mechanism is not None:
            features.add(mechanism, hit)
            if reading == "own":
                # A faint cue ("evaluated on … benchmarks") does not say what the work is.
                if hit.lead and tier(cue.weight) != FAINT:
                    features.add(f"lead:{cue.mechanism.value}", hit)
                if chinese:
                    features.add(f"zh:{cue.mechanism.value}", hit)
        if not (cue.role is CueRole.ASSERT and hit.negation is not None):
            for name in facts:
                features.add(name, hit)
        if cue.narrow and hit.negation is None:
            features.add("narrow", hit)
        if cue.role is CueRole.OWN_ROLLOUTS and hit.negation is None:
            features.add("own_rollouts", hit)
        if cue.role is CueRole.FROZEN and hit.negation is None:
            features.add("frozen", hit)
    # The first definite mechanism phrase where the work says what it is ("we introduce X, a benchmark ...").
    opening = next((h for h in ordered if h.lead and h.reading == "own" and h.cue.mechanism is not None
                    and abs(h.cue.weight) >= 2.0), None)
    if opening is not None and opening.cue.mechanism is not None:
        features.add(f"first:{opening.cue.mechanism.value}", opening)
    # No training objective stated as the work's own: what a harness, a benchmark or a search
    # method says of itself.
    if not any(h.reading == "own" and h.cue.mechanism in TRAINED and abs(h.cue.weight) >= 2.0 for h in ordered):
        features.add("untrained")
    named = [h for h in ordered if h.cue.algorithm and h.cue.mechanism and h.reading == "own"]
    first = named[0] if named else None
    # An RL or preference objective named after an SFT stage is the method ("SFT, then GRPO").
    if first is not None and first.cue.mechanism is Mechanism.SFT_DISTILLATION:
        first = next((h for h in named if h.cue.mechanism in RL_LIKE), first)
    if first is not None and first.cue.mechanism is not None:
        features.add(f"algo:{first.cue.mechanism.value}", first)
    return features


RL_LIKE = frozenset({Mechanism.POLICY_GRADIENT, Mechanism.PREFERENCE_OPTIMIZATION})
TRAINED = frozenset({*RL_LIKE, Mechanism.SFT_DISTILLATION, Mechanism.EVOLUTION_STRATEGIES})


def span_of(text: str, hit: Hit, decides: str, contribution: float = 0.0) -> Span:
    return Span(hit.start, hit.end, text[hit.start:hit.end], decides, hit.negation is not None, contribution)


# Words as features of their own, for the mechanism model and the rubric facts: an English word (lower-cased,
# three letters or more, not a function word) or two adjacent Chinese characters. The cues say what a
# phrase means; the words let the fitted weights pick up how each kind of work describes itself.
WORD_PREFIX = "w:"
# The same words again where the work says what it is or does ("we introduce X, a benchmark for ...",
# "本项目是一个…框架"): a word there speaks of the work's own contribution, elsewhere it may speak of the problem
# or of other work. On the fifth to tenth held-out sets' English works (development sets) they lifted
# mechanism from 0.806 to 0.816, fitted on the project's examples alone.
LEAD_PREFIX = "l:"
WORD_PREFIXES = (WORD_PREFIX, LEAD_PREFIX)
# The scale word features enter the model at, against a cue's 1 (a larger scale lets the shared L2 penalty
# hold them back less): chosen by fitting on four fifths of the project's examples and measuring on the fifth
# held back, split by work (scales 1, 1.5 and 2 tried on 2,954 examples; 1 gave English mechanism 0.873
# against 0.856 at 2, Chinese 0.905 at both).
WORD_SCALE = 1.0
# (Opening on one character class, which the regex engine skips to in a tight loop: see ``text.SENTENCE_END``.)
WORD = re.compile(r"[A-Za-z\u4e00-\u9fff](?:(?<=[A-Za-z])[A-Za-z-]{2,}|(?<=[\u4e00-\u9fff])[\u4e00-\u9fff]+)")
STOPWORDS = frozenset((
    "the", "and", "for", "with", "that", "this", "from", "are", "was", "were", "has", "have", "had", "been", "its",
    "their", "our", "which", "these", "those", "such", "into", "than", "then", "also", "can", "not", "but", "all",
    "any", "each", "both", "more", "most", "other", "some", "when", "where", "while", "what", "who", "how", "use",
    "used", "using", "via", "based", "per", "over", "under", "between", "through", "about", "upon", "onto", "out",
    "off", "one", "two", "three", "new", "may", "will", "would", "could", "should", "must", "does", "did",
))
STOP_KEYS = frozenset(WORD_PREFIX + word for word in STOPWORDS)


def add_words(
    features: Features, work: str, *, denied: Callable[[int], bool] | None = None,
    lead: Callable[[int], bool] | None = None,
) -> None:
    """Add the word features of the working text.

    ``denied`` tells the positions a negation or a comparison holds, from its
    trigger to the cue it reaches ("does not require supervised data, additional
    training, or reinforcement learning", "outperforms PPO"): the cue's feature
    carries that reading, so those words do not count as the work's own.
    ``lead`` tells the positions of the sentences where the work describes
    itself; a word there adds its ``l:`` feature too. (A run of Chinese
    characters never crosses a sentence end, so it lies in such a sentence or not.)
    """
    counts, words = features.counts, features.words
    get = counts.get
    for m in WORD.finditer(work):
        token = m.group()
        start = m.start()
        if denied is not None and denied(start):
            continue
        own = lead is not None and lead(start)
        if token[0] < "\u0080":
            word = token.lower()
            key = WORD_PREFIX + word
            if key in STOP_KEYS:
                continue
            counts[key] = get(key, 0.0) + 1.0
            if key not in words:
                words[key] = (start, m.end())
            if own:
                key = LEAD_PREFIX + word
                counts[key] = get(key, 0.0) + 1.0
                if key not in words:
                    words[key] = (start, m.end())
            continue
        for i in range(len(token) - 1):
            pair = token[i:i + 2]
            key = WORD_PREFIX + pair
            counts[key] = get(key, 0.0) + 1.0
            if key not in words:
                words[key] = (start + i, start + i + 2)
            if own:
                key = LEAD_PREFIX + pair
                counts[key] = get(key, 0.0) + 1.0
                if key not in words:
                    words[key] = (start + i, start + i + 2)
