"""Scanning a text for cues in one left-to-right pass."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from classifier.lexicon.cue import Cue
from classifier.lexicon.cues import CUES
from classifier.lexicon.starts import CASE_FOLDS, any_case, class_starts, first_chars, prefixes, sre_parse


# Every cue becomes one named group of one alternation; ``lastgroup`` gives
# the cue back. Case sensitivity is per cue through a scoped inline flag.
# Cues that only mark narrowness are scanned in a second pass, so that they
# are found even inside a phrase another cue has taken ("train only a
# correction policy").
def _alternation(cues: list[tuple[int, Cue]]) -> re.Pattern[str]:
    return re.compile(
        "|".join(
            f"(?P<c{i}>{cue.pattern})" if cue.case_sensitive else f"(?P<c{i}>(?i:{cue.pattern}))"
            for i, cue in cues
        )
    )


def _narrow_only(cue: Cue) -> bool:
    return cue.narrow and cue.mechanism is None and not cue.facts


# The regex engine tries an alternation's branches one by one at every
# position, which is slow for hundreds of cues. So the cues are dispatched
# on their first two characters: at each position where some cue can
# start, only the cues that can open with the two characters found there
# are tried, in lexicon order, which keeps "the first listed wins". A cue
# whose second character may be anything, or that can end after its first,
# is tried wherever its first character is.
@dataclass
class Dispatch:
    """One pass's cue alternations: the number of the one to try by the two characters a match opens with,
    or by the first alone for the cues that take any second; the alternations, each compiled when first
    needed (most are never met, and compiling them all would double the import time); and the characters
    where any cue can start."""

    pairs: dict[str, int]
    singles: dict[str, int]
    entries: list[list[tuple[int, Cue]]]
    starts: re.Pattern[str]
    compiled: list[re.Pattern[str] | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.compiled = [None] * len(self.entries)

    def compile(self, number: int) -> re.Pattern[str]:
        pattern = self.compiled[number] = _alternation(self.entries[number])
        return pattern


# The characters that case-insensitive matching takes for an ASCII letter but .lower() leaves apart from it
# (dotless ı, the long ſ, the dotted İ): a pair ending in one of these is tried against every cue of its first.
FOLDED = [ch for ch in CASE_FOLDS if not ch.lower().isascii()]


def _dispatch(cues: list[tuple[int, Cue]]) -> Dispatch:
    by_pair: dict[str, list[tuple[int, Cue]]] = {}
    by_first: dict[str, list[tuple[int, Cue]]] = {}
    any_second: dict[str, list[tuple[int, Cue]]] = {}
    for i, cue in cues:
        parsed = sre_parse.parse(cue.pattern)
        first, empty = first_chars(parsed)
        if first is None or empty:
            raise ValueError(f"cues must start with a known character: {cue.pattern}")
        openings = prefixes(parsed, 2)
        for ch in first:
            by_first.setdefault(ch, []).append((i, cue))
            if openings is None or any(len(o) < 2 and o.startswith(ch) for o in openings):
                any_second.setdefault(ch, []).append((i, cue))
        for pair in openings or ():
            if len(pair) == 2 and pair[0] in first:
                by_pair.setdefault(pair, []).append((i, cue))
    pairs = {pair: entries + any_second.get(pair[0], []) for pair, entries in by_pair.items()}
    for ch, entries in by_first.items():
        for folded in FOLDED:
            pairs[(ch + folded).lower()] = entries
    numbers: dict[tuple[int, ...], int] = {}
    alternations: list[list[tuple[int, Cue]]] = []

    def number(entries: list[tuple[int, Cue]]) -> int:
        ordered = sorted(set(entries), key=lambda e: e[0])
        key = tuple(i for i, _ in ordered)
        if key not in numbers:
            numbers[key] = len(alternations)
            alternations.append(ordered)
        return numbers[key]

    # Where some cue can start: another character some cue opens with, or a Latin one (in any case) that
    # starts a word.
    latin = any_case(ch for ch in by_first if ch.isascii())
    starts = class_starts({ch for ch in by_first if not ch.isascii()}, latin, word_chars="A-Za-z0-9_")
    return Dispatch(
        {pair: number(entries) for pair, entries in pairs.items()},
        {ch: number(entries) for ch, entries in any_second.items()},
        alternations,
        starts,
    )


_INDEXED = list(enumerate(CUES))
MAIN_PASS = _dispatch([(i, c) for i, c in _INDEXED if not _narrow_only(c)])
NARROW_PASS = _dispatch([(i, c) for i, c in _INDEXED if _narrow_only(c)])
CUE_BY_GROUP: dict[str, Cue] = {f"c{i}": cue for i, cue in _INDEXED}


def _scan(text: str, dispatch: Dispatch) -> list[re.Match[str]]:
    pairs, singles, compiled = dispatch.pairs, dispatch.singles, dispatch.compiled
    matches: list[re.Match[str]] = []
    reached = 0
    for start in dispatch.starts.finditer(text):
        pos = start.start()
        if pos < reached:
            continue
        # A start that case-insensitive matching folds onto an ASCII letter (dotless ı, the long ſ)
        # but .lower() leaves alone has no alternation of its own.
        number = pairs.get(text[pos:pos + 2].lower(), -1)
        if number < 0:
            number = singles.get(text[pos].lower(), -1)
            if number < 0:
                continue
        m = (compiled[number] or dispatch.compile(number)).match(text, pos)
        if m is not None:
            matches.append(m)
            reached = m.end()
    return matches


def scan(text: str) -> list[re.Match[str]]:
    """Cue matches in text order, as one left-to-right scan would find them:
    none starts inside an earlier match. Narrow-only cues come after, found
    even inside other matches ("train only a correction policy")."""
    return _scan(text, MAIN_PASS) + _scan(text, NARROW_PASS)


