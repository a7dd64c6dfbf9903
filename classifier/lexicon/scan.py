"""Scanning a text for cues in one left-to-right pass."""

from __future__ import annotations

import re
from typing import NamedTuple

from classifier.lexicon.cue import Cue
from classifier.lexicon.cues import CUES
from classifier.lexicon.starts import first_chars, prefixes, sre_parse

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
class Alternations(dict[str, "re.Pattern[str] | None"]):
    """The alternation of the cues for each key, compiled when first asked for (most keys are never met,
    and compiling them all would double the import time); None for a key no cue has."""

    def __init__(self, entries: dict[str, list[tuple[int, Cue]]], compiled: dict[tuple[int, ...], re.Pattern[str]]):
        super().__init__()
        self._entries = entries
        self._compiled = compiled

    def __missing__(self, key: str) -> re.Pattern[str] | None:
        entries = self._entries.get(key)
        if entries is None:
            return None
        ordered = sorted(set(entries), key=lambda e: e[0])
        numbers = tuple(i for i, _ in ordered)
        if numbers not in self._compiled:
            self._compiled[numbers] = _alternation(ordered)
        pattern = self[key] = self._compiled[numbers]
        return pattern


class Dispatch(NamedTuple):
    """One pass's alternations: by the two characters a match opens with, by the first alone for
    the cues that take any second, and the characters where any cue can start."""

    pairs: Alternations
    singles: Alternations
    starts: re.Pattern[str]


# The characters besides ASCII letters that case-insensitive matching takes for one (dotless ı, the long ſ,
# the dotted İ, the Kelvin sign), and those of them .lower() leaves apart from it: a pair ending in one
# of these is tried against every cue of its first.
CASE_FOLDS = {ch: next(a for a in "abcdefghijklmnopqrstuvwxyz" if re.fullmatch(a, ch, re.IGNORECASE))
              for ch in map(chr, range(0x80, 0x10000)) if re.fullmatch("[a-z]", ch, re.IGNORECASE)}
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
    compiled: dict[tuple[int, ...], re.Pattern[str]] = {}
    # Where some cue can start: a Latin character (in any case) that starts a word, or another character
    # some cue opens with; written as one character class with a look back from after it, which the regex
    # engine skips to in a tight loop.
    latin = {ch for ch in by_first if ch.isascii()}
    latin |= {ch.upper() for ch in latin} | {ch for ch, ascii in CASE_FOLDS.items() if ascii in latin}
    word = re.escape("".join(sorted(latin)))
    other = "".join(sorted(ch for ch in by_first if not ch.isascii()))
    starts = re.compile(rf"[{word}{re.escape(other)}](?<![A-Za-z0-9_][{word}])")
    return Dispatch(Alternations(pairs, compiled), Alternations(any_second, compiled), starts)


_INDEXED = list(enumerate(CUES))
MAIN_PASS = _dispatch([(i, c) for i, c in _INDEXED if not _narrow_only(c)])
NARROW_PASS = _dispatch([(i, c) for i, c in _INDEXED if _narrow_only(c)])
CUE_BY_GROUP: dict[str, Cue] = {f"c{i}": cue for i, cue in _INDEXED}


def _scan(text: str, dispatch: Dispatch) -> list[re.Match[str]]:
    pairs, singles = dispatch.pairs, dispatch.singles
    matches: list[re.Match[str]] = []
    reached = 0
    for start in dispatch.starts.finditer(text):
        pos = start.start()
        if pos < reached:
            continue
        # A start that case-insensitive matching folds onto an ASCII letter (dotless ı, the long ſ)
        # but .lower() leaves alone has no alternation of its own.
        pattern = pairs[text[pos:pos + 2].lower()] or singles[text[pos].lower()]
        m = pattern.match(text, pos) if pattern is not None else None
        if m is not None:
            matches.append(m)
            reached = m.end()
    return matches


def scan(text: str) -> list[re.Match[str]]:
    """Cue matches in text order, as one left-to-right scan would find them:
    none starts inside an earlier match. Narrow-only cues come after, found
    even inside other matches ("train only a correction policy")."""
    return _scan(text, MAIN_PASS) + _scan(text, NARROW_PASS)


