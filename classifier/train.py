"""Fit the classifier's weights from labelled examples.

    python -m classifier.train [--examples FILE ...] [--out PATH]

Examples are ``{"text", "subject"?/"name"?, "mechanism", "verdict", "facts"?, "weight"?}``:
the project's own (``classifier/data/examples.json``: the wiki's text and
descriptions the project wrote) and any others, such as the wiki's saved
classifications. ``facts`` maps rubric facts to true/false; where absent they
follow from the verdict and the mechanism (a strict verdict has all four; an
RL objective that is not strict has an update but no interactive
environment; any other mechanism updates nothing).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from classifier.engine import analyse, suggest
from classifier.features import WORD_PREFIXES
from classifier.fit import feature_matrix, fit_softmax, fit_temperature, logits
from classifier.model import DEFAULT_WEIGHTS, FALSE, TRUE, LinearModel, Weights
from classifier.taxonomy import Fact, Mechanism, Verdict

PROJECT_EXAMPLES = Path(__file__).parent / "data" / "examples.json"
L2 = 3.0
MIN_WORD_EXAMPLES = 2


@dataclass(frozen=True)
class Example:
    """One labelled text; ``facts`` holds what is known of each rubric fact."""

    text: str
    subject: str | None
    mechanism: Mechanism
    verdict: Verdict
    facts: dict[Fact, bool] = field(default_factory=dict)
    weight: float = 1.0
    origin: str = "project"


def derived_facts(mechanism: Mechanism, verdict: Verdict) -> dict[Fact, bool]:
    if verdict.is_strict:
        return dict.fromkeys(Fact, True)
    if verdict is Verdict.ADJACENT:
        return {Fact.INTERACTIVE_ENV: True, Fact.MULTI_STEP: True, Fact.VERIFIABLE_REWARD: True, Fact.RL_UPDATE: False}
    if mechanism is Mechanism.POLICY_GRADIENT:
        return {Fact.INTERACTIVE_ENV: False, Fact.MULTI_STEP: False, Fact.VERIFIABLE_REWARD: True, Fact.RL_UPDATE: True}
    if mechanism.record.needs_own_rollouts:
        # Preference optimisation that is not strict may still have run in an environment (on data
        # it did not collect itself): which fact failed is not known.
        return {Fact.RL_UPDATE: False}
    if mechanism.record.facts_decide:
        # An update that is not strict (nor adjacent) learnt without an environment of its own.
        return {Fact.INTERACTIVE_ENV: False, Fact.RL_UPDATE: False}
    return {Fact.RL_UPDATE: False}


def example_from(item: dict[str, Any], *, origin: str = "project", weight: float = 1.0) -> Example:
    mechanism, verdict = Mechanism(item["mechanism"]), Verdict(item["verdict"])
    facts = derived_facts(mechanism, verdict)
    for key, value in (item.get("facts") or {}).items():
        if value is not None:
            facts[Fact(key)] = bool(value)
    subject = item.get("subject") or item.get("name")
    return Example(item["text"], str(subject) if subject else None, mechanism, verdict, facts,
                   float(item.get("weight", weight)), str(item.get("origin", origin)))


def load_examples(path: Path, *, origin: str = "project") -> list[Example]:
    return [example_from(item, origin=origin) for item in json.loads(path.read_text(encoding="utf-8"))]


def _fit(
    rows: list[dict[str, float]], labels: list[str], classes: tuple[str, ...], weights: list[float],
    vocabulary: list[str], *, calibrate: bool = True,
) -> LinearModel:
    x = feature_matrix(rows, vocabulary)
    y = np.array([classes.index(label) for label in labels], dtype=np.int64)
    sw = np.array(weights, dtype=np.float64)
    temperature = 1.0
    if calibrate and len(rows) >= 20:
        # Calibration: fit on four fifths, choose the temperature on the fifth held back.
        held = np.arange(len(rows)) % 5 == 0
        w, b = fit_softmax(x[~held], y[~held], len(classes), sample_weight=sw[~held], l2=L2)
        temperature = fit_temperature(logits(x[held], w, b), y[held])
    w, b = fit_softmax(x, y, len(classes), sample_weight=sw, l2=L2)
    return LinearModel(classes, tuple(vocabulary), w, b, temperature)


def balance(labels: Sequence[str]) -> list[float]:
    """A weight per example that gives every mechanism the same total weight: the examples hold ten
    policy-gradient works for each inference-time search one, and without it the rarer mechanisms are
    seldom suggested for a text that reads like both."""
    counts = Counter(labels)
    mean = len(labels) / len(counts)
    return [mean / counts[label] for label in labels]


def train(examples: Sequence[Example], *, version: int = 1) -> Weights:
    """Weights fitted to ``examples``."""
    rows = [analyse(e.text, e.subject).features.values() for e in examples]
    # A word feature is kept when two examples or more have it.
    seen: dict[str, int] = {}
    for row in rows:
        for name in row:
            seen[name] = seen.get(name, 0) + 1
    vocabulary = sorted(name for name, n in seen.items() if not name.startswith(WORD_PREFIXES) or n >= MIN_WORD_EXAMPLES)
    mechanisms = tuple(m.value for m in Mechanism)
    labels = [e.mechanism.value for e in examples]
    mechanism = _fit(rows, labels, mechanisms, [e.weight * b for e, b in zip(examples, balance(labels), strict=True)],
                     vocabulary)
    facts = {}
    for fact in Fact:
        # The update is judged only where the mechanism is an RL objective
        # (any other mechanism updates nothing by the rubric).
        known = [(row, e) for row, e in zip(rows, examples, strict=True) if fact in e.facts
                 and (fact is not Fact.RL_UPDATE or e.mechanism is Mechanism.POLICY_GRADIENT)]
        facts[fact] = _fit([row for row, _ in known], [TRUE if e.facts[fact] else FALSE for _, e in known],
                           (TRUE, FALSE), [e.weight for _, e in known], vocabulary)
    trained_on: dict[str, int] = {}
    for e in examples:
        trained_on[e.origin] = trained_on.get(e.origin, 0) + 1
    return Weights(version, mechanism, facts, trained_on)


@dataclass(frozen=True)
class Score:
    """Agreement of fitted weights with labelled items."""

    total: int
    mechanism: int
    strict: int

    @property
    def mechanism_rate(self) -> float:
        return self.mechanism / max(self.total, 1)

    @property
    def strict_rate(self) -> float:
        return self.strict / max(self.total, 1)

    def __str__(self) -> str:
        return (f"mechanism {self.mechanism}/{self.total} = {self.mechanism_rate:.3f}, "
                f"strict-vs-not {self.strict}/{self.total} = {self.strict_rate:.3f}")

    def at_least(self, other: Score) -> bool:
        return self.mechanism_rate >= other.mechanism_rate and self.strict_rate >= other.strict_rate


def score(weights: Weights, examples: Sequence[Example]) -> Score:
    mechanism = strict = 0
    for e in examples:
        s = suggest(e.text, e.subject, weights=weights)
        mechanism += s.mechanism is e.mechanism
        strict += s.verdict.is_strict == e.verdict.is_strict
    return Score(len(examples), mechanism, strict)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m classifier.train", description="Fit the classifier's weights.")
    parser.add_argument("--examples", type=Path, action="append", default=[],
                        help="more labelled examples (JSON list); the project's own are always used")
    parser.add_argument("--out", type=Path, default=DEFAULT_WEIGHTS)
    parser.add_argument("--version", type=int, default=None)
    args = parser.parse_args(argv)
    examples = load_examples(PROJECT_EXAMPLES)
    for path in args.examples:
        examples += load_examples(path, origin=path.stem)
    version = args.version
    if version is None:
        version = json.loads(args.out.read_text(encoding="utf-8"))["version"] + 1 if args.out.exists() else 1
    weights = train(examples, version=version)
    weights.save(args.out)
    print(f"weights v{version} from {len(examples)} examples → {args.out}; on them: {score(weights, examples)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
