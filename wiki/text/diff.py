"""Side-by-side diffs of two texts: lines matched first, then words (Latin) or characters (CJK) within lines.

Every piece of text is escaped before it is wrapped in ``<del>``/``<ins>``, so the result is safe to
show whatever the revisions contain.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

# One token per CJK character (Chinese has no spaces between words), one per Latin word, space run or symbol.
_CJK = r"\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
TOKEN_RE = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+|\s+|.", re.UNICODE | re.DOTALL)
# The token diff of a line pair is quadratic: beyond this many tokens in one line, or once the diff has spent
# its budget of token comparisons (len(old) * len(new) summed over changed pairs), pairs are marked whole.
# Together they keep any diff of two accepted pages under a second.
MAX_TOKENS_PER_LINE = 4000
MAX_TOKEN_PAIRS_PER_DIFF = 20_000_000
# Matching lines exactly (no "junk" heuristic) is quadratic in repeated lines; beyond this many lines,
# lines found in more than 1% of the text (blank lines, "- x") are only matched next to other lines.
MAX_LINES_FOR_EXACT_MATCHING = 2000
CONTEXT_LINES = 2


def tokenize(text: str) -> list[str]:
    return TOKEN_RE.findall(text)


@dataclass(frozen=True)
class DiffRow:
    """One row of the side-by-side table; ``left``/``right`` are escaped HTML, ``None`` when the side is empty."""

    kind: str  # "equal", "change", "delete", "insert", "skip"
    left: SafeString | None
    right: SafeString | None
    left_number: int | None = None
    right_number: int | None = None


@dataclass(frozen=True)
class Diff:
    rows: tuple[DiffRow, ...]
    added: int
    removed: int

    @property
    def is_empty(self) -> bool:
        return self.added == 0 and self.removed == 0


def _escaped(text: str) -> SafeString:
    return mark_safe(escape(text))  # noqa: S308 - escaped just before


def inline_diff(old: str, new: str, *, whole: bool = False) -> tuple[SafeString, SafeString]:
    """The two lines with removed tokens in ``<del>`` and added tokens in ``<ins>`` (or all of them, when ``whole``)."""
    a, b = tokenize(old), tokenize(new)
    if whole or len(a) > MAX_TOKENS_PER_LINE or len(b) > MAX_TOKENS_PER_LINE:
        return mark_safe(f"<del>{escape(old)}</del>"), mark_safe(f"<ins>{escape(new)}</ins>")  # noqa: S308
    left: list[str] = []
    right: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        old_part, new_part = escape("".join(a[i1:i2])), escape("".join(b[j1:j2]))
        if op == "equal":
            left.append(old_part)
            right.append(new_part)
            continue
        if old_part:
            left.append(f"<del>{old_part}</del>")
        if new_part:
            right.append(f"<ins>{new_part}</ins>")
    return mark_safe("".join(left)), mark_safe("".join(right))  # noqa: S308 - built from escaped parts


def side_by_side(old: str, new: str, *, context: int = CONTEXT_LINES) -> Diff:
    """Rows for a two-column diff; runs of unchanged lines longer than ``2 * context`` are folded."""
    a, b = old.splitlines(), new.splitlines()
    rows: list[DiffRow] = []
    added = removed = 0
    budget = MAX_TOKEN_PAIRS_PER_DIFF
    exact = max(len(a), len(b)) <= MAX_LINES_FOR_EXACT_MATCHING
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=not exact).get_opcodes():
        if op == "equal":
            span = list(range(i2 - i1))
            if len(span) > 2 * context + 1:
                keep = set(span[:context] if i1 > 0 else []) | set(span[-context:] if i2 < len(a) else [])
            else:
                keep = set(span)
            skipped = False
            for k in span:
                if k in keep:
                    rows.append(DiffRow("equal", _escaped(a[i1 + k]), _escaped(b[j1 + k]), i1 + k + 1, j1 + k + 1))
                    skipped = False
                elif not skipped:
                    rows.append(DiffRow("skip", None, None))
                    skipped = True
            continue
        old_lines, new_lines = a[i1:i2], b[j1:j2]
        removed += len(old_lines)
        added += len(new_lines)
        for k in range(max(len(old_lines), len(new_lines))):
            left = old_lines[k] if k < len(old_lines) else None
            right = new_lines[k] if k < len(new_lines) else None
            left_no = i1 + k + 1 if left is not None else None
            right_no = j1 + k + 1 if right is not None else None
            if left is not None and right is not None:
                budget -= len(tokenize(left)) * len(tokenize(right))
                left_html, right_html = inline_diff(left, right, whole=budget < 0)
                rows.append(DiffRow("change", left_html, right_html, left_no, right_no))
            elif left is not None:
                rows.append(DiffRow("delete", mark_safe(f"<del>{escape(left)}</del>"), None, left_no, None))  # noqa: S308
            else:
                rows.append(DiffRow("insert", None, mark_safe(f"<ins>{escape(right or '')}</ins>"), None, right_no))  # noqa: S308
    return Diff(rows=tuple(rows), added=added, removed=removed)
