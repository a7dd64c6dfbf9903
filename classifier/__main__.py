"""Classify a text from the command line.

    python -m classifier "text" [--subject NAME] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys

from classifier.engine import classify
from classifier.result import Span, Suggestion

ANSI_NEGATED = ("\033[9;31m", "\033[0m")
ANSI_CUE = ("\033[1;32m", "\033[0m")


def highlight(text: str, spans: tuple[Span, ...], *, ansi: bool) -> str:
    """``text`` with each evidence span wrapped: [[cue]] (or colour on a tty),
    ~~cue~~ when the cue is negated; overlapping spans keep the first."""
    out: list[str] = []
    pos = 0
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if span.start < pos:
            continue
        out.append(text[pos:span.start])
        cue = text[span.start:span.end]
        if ansi:
            left, right = ANSI_NEGATED if span.negated else ANSI_CUE
        else:
            left, right = ("~~", "~~") if span.negated else ("[[", "]]")
        out.append(f"{left}{cue}{right}")
        pos = span.end
    out.append(text[pos:])
    return "".join(out)


def render(text: str, suggestion: Suggestion, *, ansi: bool) -> str:
    lines = [
        f"mechanism:  {suggestion.mechanism.value}" + (f" ({suggestion.algorithm})" if suggestion.algorithm else ""),
        f"verdict:    {suggestion.verdict.value}",
        f"confidence: {suggestion.confidence:.2f}",
        f"updated:    {suggestion.updated or '-'}",
        "facts:",
    ]
    for finding in suggestion.facts:
        cues = ", ".join(("not " if s.negated else "") + s.cue for s in finding.evidence[:6])
        lines.append(f"  {finding.fact.value:<18} {finding.value.value:<8} {cues}")
    lines += [f"rationale:  {suggestion.rationale}", "", highlight(text, suggestion.evidence, ansi=ansi)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m classifier", description="Suggest mechanism and verdict.")
    parser.add_argument("text", help="abstract, README blurb or wiki claim (Chinese or English)")
    parser.add_argument("--subject", help="the one work to judge when the text names several")
    parser.add_argument("--json", action="store_true", help="print the suggestion as JSON")
    args = parser.parse_args(argv)
    suggestion = classify(args.text, args.subject)
    if args.json:
        print(json.dumps(suggestion.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(render(args.text, suggestion, ansi=sys.stdout.isatty()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
