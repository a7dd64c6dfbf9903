"""Measure ``classify`` against a labelled JSON file.

    python -m classifier.evaluate FILE.json

The file is a list of ``{"text", "subject"?, "name"?, "mechanism", "verdict"}``;
``name`` stands in for ``subject`` when the latter is absent.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from classifier.engine import classify
from classifier.result import Suggestion
from classifier.taxonomy import Mechanism, Verdict


@dataclass(frozen=True)
class Outcome:
    """One labelled item and what ``classify`` said about it."""

    item: dict[str, Any]
    suggestion: Suggestion

    @property
    def subject(self) -> str | None:
        value = self.item.get("subject") or self.item.get("name")
        return str(value) if value else None

    @property
    def mechanism_ok(self) -> bool:
        return bool(self.suggestion.mechanism.value == self.item["mechanism"])

    @property
    def verdict_ok(self) -> bool:
        """Binary: strict (strict or strict_narrow) against the rest."""
        return self.suggestion.verdict.is_strict == Verdict(self.item["verdict"]).is_strict

    @property
    def exact_verdict_ok(self) -> bool:
        return bool(self.suggestion.verdict.value == self.item["verdict"])


@dataclass(frozen=True)
class Report:
    outcomes: tuple[Outcome, ...]

    def count(self, attribute: str) -> int:
        return sum(bool(getattr(o, attribute)) for o in self.outcomes)

    @property
    def total(self) -> int:
        return len(self.outcomes)


def load(path: Path) -> list[dict[str, Any]]:
    items = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(items, list):
        raise ValueError(f"{path}: expected a JSON list of items")
    return items


def evaluate(items: list[dict[str, Any]]) -> Report:
    outcomes = []
    for item in items:
        subject = item.get("subject") or item.get("name")
        outcomes.append(Outcome(item, classify(item["text"], subject)))
    return Report(tuple(outcomes))


def _per_label(pairs: list[tuple[str, str]], labels: list[str]) -> list[str]:
    lines = [f"  {'label':<26}{'prec':>6}{'rec':>6}{'n':>5}"]
    for label in labels:
        tp = sum(1 for gold, got in pairs if gold == label and got == label)
        predicted = sum(1 for _, got in pairs if got == label)
        actual = sum(1 for gold, _ in pairs if gold == label)
        if not predicted and not actual:
            continue
        prec = f"{tp / predicted:.2f}" if predicted else "  - "
        rec = f"{tp / actual:.2f}" if actual else "  - "
        lines.append(f"  {label:<26}{prec:>6}{rec:>6}{actual:>5}")
    return lines


def _confusion(pairs: list[tuple[str, str]], labels: list[str]) -> list[str]:
    counts = Counter(pairs)
    used = [label for label in labels if any(label in pair for pair in pairs)]
    short = {label: label[:6] for label in used}
    lines = ["  gold \\ got".ljust(28) + "".join(f"{short[x]:>8}" for x in used)]
    for gold in used:
        lines.append(f"  {gold:<26}" + "".join(f"{counts[(gold, got)] or '.':>8}" for got in used))
    return lines


def render(report: Report) -> str:
    n = report.total
    mech = [(o.item["mechanism"], o.suggestion.mechanism.value) for o in report.outcomes]
    verd = [(o.item["verdict"], o.suggestion.verdict.value) for o in report.outcomes]
    lines = [
        f"items: {n}",
        f"mechanism accuracy: {report.count('mechanism_ok')}/{n} = {report.count('mechanism_ok') / max(n, 1):.3f}",
        f"verdict accuracy (strict vs not): {report.count('verdict_ok')}/{n} = "
        f"{report.count('verdict_ok') / max(n, 1):.3f}",
        f"exact verdict accuracy: {report.count('exact_verdict_ok')}/{n} = "
        f"{report.count('exact_verdict_ok') / max(n, 1):.3f}",
        "",
        "mechanism per label:",
        *_per_label(mech, [m.value for m in Mechanism]),
        "",
        "verdict per label:",
        *_per_label(verd, [v.value for v in Verdict]),
        "",
        "mechanism confusion:",
        *_confusion(mech, [m.value for m in Mechanism]),
        "",
        "verdict confusion:",
        *_confusion(verd, [v.value for v in Verdict]),
        "",
    ]
    misses = [o for o in report.outcomes if not (o.mechanism_ok and o.exact_verdict_ok)]
    lines.append(f"misses: {len(misses)}")
    for o in misses:
        s = o.suggestion
        lines.append(
            f"- {o.subject or o.item['text'][:40]!s}: expected {o.item['mechanism']}/{o.item['verdict']}, "
            f"got {s.mechanism.value}/{s.verdict.value} — {s.rationale}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m classifier.evaluate", description=__doc__.split("\n")[1])
    parser.add_argument("file", type=Path, help="JSON list of labelled items")
    args = parser.parse_args(argv)
    print(render(evaluate(load(args.file))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
