"""Measure ``classify`` against a labelled JSON file.

    python -m classifier.evaluate FILE.json
    python -m classifier.evaluate classifier/data/heldout11_manifest.json --texts TEXTS.json

The file is a list of ``{"text", "subject"?, "name"?, "mechanism", "verdict"}``;
``name`` stands in for ``subject`` when the latter is absent.

A held-out manifest holds only identifiers, labels and languages, and the
SHA-256 of the frozen texts file kept outside the repository; ``--texts``
names that file, which must match the checksum. When the manifest also holds
each text's own SHA-256, a texts file that is not the frozen one byte for
byte (texts fetched again from their sources, some missing) is measured on
the items whose text matches its checksum, and the report says how many
those are. The report then gives the figures for each language separately.

Where a second annotator labelled the set blind (an item's ``second``: its
mechanism, verdict and whether the annotator was sure), the report also gives
the figures on the clear-cut works: those whose mechanism both annotators
gave, the second without doubt.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from classifier.engine import classify
from classifier.result import Suggestion
from classifier.taxonomy import Mechanism, Verdict

# The newest frozen held-out set: the one whose figures are held-out figures.
HELDOUT_MANIFEST = Path(__file__).parent / "data" / "heldout11_manifest.json"


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


class ChecksumError(ValueError):
    """The texts file is not the one the manifest froze."""


def text_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def load_heldout(manifest_path: Path, texts_path: Path) -> list[dict[str, Any]]:
    """The manifest's labelled items joined with their frozen texts by id.

    The whole file must be the frozen one, unless the manifest holds a checksum
    per text: then every item whose text matches its own checksum is kept.
    """
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    blob = texts_path.read_bytes()
    digest = hashlib.sha256(blob).hexdigest()
    texts = {entry["id"]: entry for entry in json.loads(blob.decode("utf-8"))}
    per_item = all("sha256" in label for label in manifest["items"])
    if digest != manifest["texts_sha256"] and not per_item:
        raise ChecksumError(f"{texts_path}: sha256 {digest} is not the frozen {manifest['texts_sha256']}")
    items = []
    for label in manifest["items"]:
        entry = texts.get(label["id"])
        if entry is None or (per_item and text_sha256(entry["text"]) != label["sha256"]):
            continue
        fields = {key: value for key, value in label.items() if key != "sha256"}
        items.append({**fields, "text": entry["text"], "name": entry.get("name")})
    if not items:
        raise ChecksumError(f"{texts_path}: no text matches the checksums of {manifest_path}")
    return items


def is_manifest(path: Path) -> bool:
    data = json.loads(path.read_text(encoding="utf-8"))
    return isinstance(data, dict) and "texts_sha256" in data


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


def is_clear_cut(item: dict[str, Any]) -> bool:
    """Both annotators gave the item's mechanism, the second without doubt."""
    second = item.get("second")
    return bool(second and second.get("confident") and second.get("mechanism") == item["mechanism"])


def clear_cut(report: Report) -> Report | None:
    """The part of ``report`` on clear-cut works, when a second annotator labelled the set."""
    if not any("second" in o.item for o in report.outcomes):
        return None
    return Report(tuple(o for o in report.outcomes if is_clear_cut(o.item)))


def agreement(report: Report) -> str:
    """How often the second annotator gave the first one's mechanism and strict-or-not call."""
    seconds = [(o.item, o.item["second"]) for o in report.outcomes if "second" in o.item]
    n = max(len(seconds), 1)
    mechanism = sum(second["mechanism"] == item["mechanism"] for item, second in seconds)
    strict = sum(Verdict(second["verdict"]).is_strict == Verdict(item["verdict"]).is_strict for item, second in seconds)
    return (f"second annotator agrees on {len(seconds)} works: mechanism {mechanism / n:.3f}, "
            f"strict-vs-not {strict / n:.3f}")


def render_by_language(report: Report) -> str:
    """Mechanism, strict-vs-not and exact verdict for each language apart."""
    lines = [f"{'language':<10}{'n':>5}{'mechanism':>12}{'strict-vs-not':>16}{'exact verdict':>16}"]
    for lang in sorted({str(o.item.get("lang", "?")) for o in report.outcomes}):
        part = Report(tuple(o for o in report.outcomes if o.item.get("lang", "?") == lang))
        n = max(part.total, 1)
        lines.append(
            f"{lang:<10}{part.total:>5}{part.count('mechanism_ok') / n:>12.3f}"
            f"{part.count('verdict_ok') / n:>16.3f}{part.count('exact_verdict_ok') / n:>16.3f}"
        )
    return "\n".join(lines)


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
    parser.add_argument("file", type=Path, help="JSON list of labelled items, or a held-out manifest")
    parser.add_argument("--texts", type=Path, help="the frozen texts of a held-out manifest")
    args = parser.parse_args(argv)
    if is_manifest(args.file):
        if args.texts is None:
            parser.error("a held-out manifest needs --texts FILE")
        try:
            items = load_heldout(args.file, args.texts)
        except ChecksumError as error:
            print(error, file=sys.stderr)
            return 2
        frozen = len(json.loads(args.file.read_text(encoding="utf-8"))["items"])
        print(f"held-out items whose text matches the frozen checksum: {len(items)}/{frozen}")
        report = evaluate(items)
        print(render_by_language(report))
        clear = clear_cut(report)
        if clear is not None:
            print()
            print(agreement(report))
            print("on the clear-cut works (both annotators give the mechanism, the second without doubt):")
            print(render_by_language(clear))
        print()
        print(render(report))
        return 0
    print(render(evaluate(load(args.file))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
