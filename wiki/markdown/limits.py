"""Limits on what one page may hold, so that rendering any accepted text stays well under two seconds.

Python-Markdown's inline and table-of-contents passes are quadratic in some inputs (a paragraph
of 200,000 ``[``, 50,000 headings); these limits were set by timing the worst accepted inputs,
and are far above what the wiki's real pages use (the seed pages: 315 lines, 32 markup characters
in the busiest paragraph).
"""

from __future__ import annotations

import re

from django.utils.translation import gettext

from wiki.text.numbers import grouped

MAX_LINES = 10_000
MAX_HEADINGS = 1_000
MAX_LIST_ITEMS = 5_000
MAX_FENCES = 1_000
MAX_CITATIONS = 2_000
MAX_MARKUP_PER_BLOCK = 1_000
MAX_MARKUP_TOTAL = 20_000
# Characters that open inline constructs (links, HTML, entities, emphasis, code, math, citations, escapes), and
# the tilde, whose fences the fenced-code pass matches in time quadratic in their length (100,000 took 30 s).
MARKUP_CHARS = "[<&*_`$（\\~"
# Each "[" or "<" that nothing closes makes the inline pass scan the rest of its paragraph: the cost is openers x
# paragraph length, summed over paragraphs (2,000,000 renders in about a second). One closed soon after (a wiki
# link, a link's text, a tag) is matched where it stands and costs an eighth of that: 200 paragraphs of 1,000
# characters with 20 wiki links each (1,000,000) render in half a second.
SCAN_OPENERS = "[<"
MAX_SCAN_COST = 2_000_000
CLOSED_SHARE = 8
_CLOSED = re.compile(r"\[[^\[\]<>\n]{0,300}\]|<[^<>\[\]\n]{0,300}>")

# A code fence that no later line closes makes the fenced-code passes read the rest of the text (Python-Markdown's
# as well as the formulas'): the cost is that rest, summed over such fences (990 of them over 100,000 characters,
# 100,000,000, took 1.7 s to render; 20,000,000 takes a third of a second).
MAX_UNCLOSED_FENCE_COST = 20_000_000
_FENCE_LINE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})(.*)$", re.MULTILINE)

_BLOCK_SPLIT = re.compile(r"\n[ \t]*\n")
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}(?:[ \t]|$)|^[ \t]{0,3}(?:=+|-+)[ \t]*$", re.MULTILINE)
_LIST_ITEM = re.compile(r"^[ \t>]*(?:[-*+－＊＋•]|\d{1,9}[.)．])(?:[ \t\u3000]|$)", re.MULTILINE)
_CITATION = re.compile(r"[（(]\s*(?:来源|综合)")
_FENCE = re.compile(r"^[ \t>]*(?:`{3,}|~{3,})", re.MULTILINE)


def _markup(text: str) -> int:
    return sum(text.count(char) for char in MARKUP_CHARS)


def _scan_cost(block: str) -> int:
    """What the inline pass's scanning of ``block`` costs: its openers that nothing closes times its length, and
    an eighth of that for those closed within a line and 300 characters (twice over: ``[[a wiki link]]``)."""
    openers = sum(block.count(char) for char in SCAN_OPENERS)
    if not openers:
        return 0
    rest = _CLOSED.sub("", _CLOSED.sub("", block))
    unclosed = sum(rest.count(char) for char in SCAN_OPENERS)
    return (unclosed + (openers - unclosed) // CLOSED_SHARE) * len(block)


def _unclosed_fences(text: str) -> tuple[list[int], int]:
    """The offsets of the fences no later line closes, and what reading on from each costs. A fence of ``n`` backticks
    (or tildes) is closed by a later line of ``k <= n`` of the same alone (the patterns match a shorter fence when the
    longer finds no end), so a fence is unclosed when no later such line is at most as long."""
    fences = list(_FENCE_LINE.finditer(text))
    shortest_closer: dict[str, int] = {}
    unclosed: list[int] = []
    for fence in reversed(fences):
        marks = fence.group(1)
        closer = shortest_closer.get(marks[0])
        if closer is None or closer > len(marks):
            unclosed.append(fence.start())
        if not fence.group(2).strip(" \t"):
            shortest_closer[marks[0]] = min(len(marks), closer or len(marks))
    unclosed.reverse()
    return unclosed, sum(len(text) - start for start in unclosed)


def limit_problem(text: str) -> str | None:
    """Why ``text`` is refused, or ``None`` when it is within every limit."""
    lines = text.count("\n") + 1
    if lines > MAX_LINES:
        return gettext("The text has %(count)s lines; at most %(limit)s are allowed.") % {"count": grouped(lines), "limit": grouped(MAX_LINES)}
    counts: list[tuple[str, int, int]] = [
        (gettext("headings"), len(_HEADING.findall(text)), MAX_HEADINGS),
        (gettext("list items"), len(_LIST_ITEM.findall(text)), MAX_LIST_ITEMS),
        (gettext("code fences"), len(_FENCE.findall(text)), MAX_FENCES),
        (gettext("citations"), len(_CITATION.findall(text)), MAX_CITATIONS),
        (gettext("markup characters (any of [ < & * _ ` $ （ \\ ~)"), _markup(text), MAX_MARKUP_TOTAL),
    ]
    for what, count, limit in counts:
        if count > limit:
            return gettext("The text has %(count)s %(what)s; at most %(limit)s are allowed. Split it into several pages.") % {
                "count": grouped(count), "what": what, "limit": grouped(limit)}
    unclosed, fence_cost = _unclosed_fences(text)
    if fence_cost > MAX_UNCLOSED_FENCE_COST:
        where = ", ".join(str(text.count("\n", 0, start) + 1) for start in unclosed[:5]) + ("…" if len(unclosed) > 5 else "")
        return gettext(
            "%(count)s code fences are never closed (lines %(lines)s): each makes the renderer read the rest of the "
            "text. Close each with a line of the same ``` or ~~~, or remove it."
        ) % {"count": grouped(len(unclosed)), "lines": where}
    offset = 0
    scan_cost = 0
    for block in _BLOCK_SPLIT.split(text):
        # first, so that no paragraph read for its scanning cost holds more than this many brackets
        count = _markup(block)
        if count > MAX_MARKUP_PER_BLOCK:
            line = text.count("\n", 0, text.find(block, offset)) + 1
            return gettext(
                "The paragraph at line %(line)s has %(count)s markup characters (any of [ < & * _ ` $ （ \\ ~); "
                "at most %(limit)s are allowed in one paragraph. Break it up with blank lines."
            ) % {"line": line, "count": grouped(count), "limit": grouped(MAX_MARKUP_PER_BLOCK)}
        scan_cost += _scan_cost(block)
        if scan_cost > MAX_SCAN_COST:
            line = text.count("\n", 0, text.find(block, offset)) + 1
            return gettext(
                "Too many “[” or “<” in long paragraphs (up to the paragraph at line %(line)s): each one makes the "
                "renderer re-read its paragraph. Break long paragraphs up with blank lines, or use fewer brackets."
            ) % {"line": line}
        offset += len(block)
    return None
