"""Scanning a text for cues in one left-to-right pass."""

from __future__ import annotations

import re

from classifier.lexicon.cue import Cue
from classifier.lexicon.cues import CUES
from classifier.lexicon.starts import first_chars, sre_parse

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
# on their possible first character: at each position where some cue can
# start, only the cues starting with that character are tried, in lexicon
# order, which keeps "the first listed wins".
def _dispatch(cues: list[tuple[int, Cue]]) -> tuple[dict[str, re.Pattern[str]], re.Pattern[str]]:
    by_char: dict[str, list[tuple[int, Cue]]] = {}
    anywhere: list[tuple[int, Cue]] = []
    for i, cue in cues:
        first, empty = first_chars(sre_parse.parse(cue.pattern))
        if first is None or empty:
            anywhere.append((i, cue))
            continue
        for ch in first:
            by_char.setdefault(ch, []).append((i, cue))
    if anywhere:
        raise ValueError(f"cues must start with a known character: {[c.pattern for _, c in anywhere]}")
    table = {ch: _alternation(sorted(entries, key=lambda e: e[0])) for ch, entries in by_char.items()}
    latin = "".join(sorted(re.escape(ch) for ch in table if ch.isascii()))
    other = "".join(sorted(ch for ch in table if not ch.isascii()))
    starts = re.compile(rf"(?<![A-Za-z0-9_])(?i:[{latin}])|[{other}]")
    return table, starts


_INDEXED = list(enumerate(CUES))
MAIN_PASS = _dispatch([(i, c) for i, c in _INDEXED if not _narrow_only(c)])
NARROW_PASS = _dispatch([(i, c) for i, c in _INDEXED if _narrow_only(c)])
CUE_BY_GROUP: dict[str, Cue] = {f"c{i}": cue for i, cue in _INDEXED}


def _scan(text: str, table: dict[str, re.Pattern[str]], starts: re.Pattern[str]) -> list[re.Match[str]]:
    matches: list[re.Match[str]] = []
    reached = 0
    for start in starts.finditer(text):
        pos = start.start()
        if pos < reached:
            continue
        # Case-insensitive matching folds a few characters (dotless ı, the Kelvin sign) onto ASCII
        # letters that .lower() leaves alone: such a start has no table of its own.
        pattern = table.get(text[pos].lower())
        m = pattern.match(text, pos) if pattern is not None else None
        if m is not None:
            matches.append(m)
            reached = m.end()
    return matches


def scan(text: str) -> list[re.Match[str]]:
    """Cue matches in text order, as one left-to-right scan would find them:
    none starts inside an earlier match. Narrow-only cues come after, found
    even inside other matches ("train only a correction policy")."""
    return _scan(text, *MAIN_PASS) + _scan(text, *NARROW_PASS)


