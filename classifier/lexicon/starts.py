"""The characters a pattern can start with: where the regex engine need not try it at all."""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
from typing import Any

# The standard library's own regex parser, to read the first characters.
sre_parse = importlib.import_module("re._parser")


def first_chars(items: Any) -> tuple[set[str] | None, bool]:
    """The characters (lower-cased) a parsed pattern can start with, or None
    for "any", and whether the pattern can match the empty string."""
    chars: set[str] = set()
    for op, av in items:
        name = str(op)
        if name in ("ASSERT_NOT", "ASSERT", "AT"):
            continue
        if name == "LITERAL":
            return chars | {chr(av).lower()}, False
        if name == "IN":
            for kind, value in av:
                if str(kind) == "LITERAL":
                    chars.add(chr(value).lower())
                elif str(kind) == "RANGE" and value[1] - value[0] < 128:
                    chars.update(chr(c).lower() for c in range(value[0], value[1] + 1))
                elif str(kind) == "CATEGORY" and str(value) == "CATEGORY_DIGIT":
                    chars.update("0123456789")
                else:
                    return None, False
            return chars, False
        if name in ("SUBPATTERN", "BRANCH", "MAX_REPEAT", "MIN_REPEAT"):
            if name == "SUBPATTERN":
                branches, optional = [av[-1]], False
            elif name == "BRANCH":
                branches, optional = av[1], False
            else:
                branches, optional = [av[2]], av[0] == 0
            nullable = optional
            for branch in branches:
                first, empty = first_chars(branch)
                if first is None:
                    return None, False
                chars |= first
                nullable = nullable or empty
            if not nullable:
                return chars, False
            continue
        return None, False
    return chars, True


def _after_a_letter(av: Any) -> bool:
    """Whether a lookbehind refuses a position after any ASCII letter (``(?<![A-Za-z])`` or stricter)."""
    direction, items = av[0], av[-1]
    if direction != -1 or len(items) != 1 or str(items[0][0]) != "IN":
        return False
    ranges = {value for kind, value in items[0][1] if str(kind) == "RANGE"}
    return {(ord("A"), ord("Z")), (ord("a"), ord("z"))} <= ranges


def _leads(items: Any, word_start: bool = False) -> list[tuple[set[str], bool]] | None:
    """Each alternative's first characters and whether it must start a word (behind ``(?<![A-Za-z])``),
    or None where an alternative may start with any character or match the empty string."""
    for index, (op, av) in enumerate(items):
        name = str(op)
        if name == "ASSERT_NOT" and _after_a_letter(av):
            word_start = True
            continue
        if name in ("ASSERT_NOT", "ASSERT", "AT"):
            continue
        if name in ("SUBPATTERN", "BRANCH"):
            rest = list(items[index + 1:])
            leads: list[tuple[set[str], bool]] = []
            for branch in [av[-1]] if name == "SUBPATTERN" else av[1]:
                more = _leads(list(branch) + rest, word_start)
                if more is None:
                    return None
                leads += more
            return leads
        first, empty = first_chars(items[index:])
        return None if first is None or empty else [(first, word_start)]
    return None


# The characters besides ASCII letters that case-insensitive matching takes for one (dotless ı, the long ſ,
# the dotted İ, the Kelvin sign).
_LETTER = re.compile("[a-z]", re.IGNORECASE)
CASE_FOLDS = {ch: next(a for a in "abcdefghijklmnopqrstuvwxyz" if re.fullmatch(a, ch, re.IGNORECASE))
              for ch in map(chr, range(0x80, 0x10000)) if _LETTER.fullmatch(ch)}


def any_case(chars: Iterable[str]) -> set[str]:
    """``chars`` with every character case-insensitive matching takes for one of them: a class of these,
    matched case-sensitively, needs no case-folding lookup at each character it is tried on."""
    found = set(chars)
    return found | {ch.upper() for ch in found} | {ch for ch, ascii in CASE_FOLDS.items() if ascii in found}


def _starts(pattern: re.Pattern[str]) -> tuple[set[str], set[str]]:
    """The characters (in every case) ``pattern`` can start with anywhere, and those it can start a word with."""
    leads = _leads(sre_parse.parse(pattern.pattern, pattern.flags))
    if leads is None:
        raise ValueError(f"a guarded pattern must start with a known character: {pattern.pattern[:60]}")
    anywhere = any_case(set().union(*(chars for chars, word_start in leads if not word_start)))
    return anywhere, any_case(set().union(*(chars for chars, word_start in leads if word_start))) - anywhere


def _class(chars: set[str]) -> str:
    return "[" + re.escape("".join(sorted(chars))) + "]"


def class_starts(anywhere: set[str], words: set[str], word_chars: str = "A-Za-z") -> re.Pattern[str]:
    """Where a pattern can start: a character of ``anywhere``, or one of ``words`` not after ``word_chars``;
    written as one character class with a look back from after it, which the regex engine skips to in a
    tight loop (a pattern opening on a look back it would start at every character)."""
    # A character of ``anywhere`` is not among those the look back refuses, so it always passes.
    words = words - anywhere
    return re.compile(_class(anywhere | words) + (f"(?<![{word_chars}]{_class(words)})" if words else ""))


class Guarded:
    """A pattern looked for only where it can start: at a character of a class of its first characters (and
    at a word's start where its alternatives need one), which the regex engine skips to in one tight loop,
    instead of starting the whole pattern at every character. ``finditer`` finds what the pattern's own
    does."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.starts = class_starts(*_starts(pattern))

    def finditer(self, text: str, pos: int = 0) -> list[re.Match[str]]:
        """The pattern's matches in ``text`` from ``pos`` on, left to right, none inside another."""
        match = self.pattern.match
        found: list[re.Match[str]] = []
        reached = pos
        for start in self.starts.finditer(text, pos):
            at = start.start()
            if at >= reached and (m := match(text, at)) is not None:
                found.append(m)
                reached = m.end()
        return found


def guarded(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """``pattern`` behind a lookahead on the characters it can start with, and on a word's start where its
    alternatives need one: it matches exactly where ``pattern`` does, and the engine passes over every other
    position after a test or two instead of trying each branch of a long alternation there. Better than
    ``Guarded`` where some alternative may start inside a word at a common letter (every 'a' would be tried
    from Python)."""
    anywhere, words = _starts(pattern)
    starts = "|".join(([_class(anywhere)] if anywhere else []) + ([f"(?<![A-Za-z]){_class(words)}"] if words else []))
    # Case-sensitive, whatever the pattern's flags: the classes hold every case.
    return re.compile(f"(?-i:(?={starts}))(?:{pattern.pattern})", pattern.flags)


def _joined(heads: set[str], tails: set[str] | None, n: int) -> set[str] | None:
    """Each of ``heads`` followed by each of ``tails``, cut at ``n`` characters (a head that long needs no tail)."""
    done = {h for h in heads if len(h) >= n}
    if len(done) == len(heads):
        return done
    if tails is None:
        return None
    return done | {(h + t)[:n] for h in heads if len(h) < n for t in tails}


def prefixes(items: Any, n: int = 2) -> set[str] | None:
    """The openings (lower-cased, ``n`` characters, or fewer where a match can end sooner) of what a parsed
    pattern can match, or None when one of its first ``n`` characters can be any. Zero-width assertions
    are passed over, so the set may hold openings the pattern then refuses, never fewer."""
    heads: set[str] | None = {""}
    for op, av in items:
        if heads is None:
            return None
        heads = _joined(heads, _item_prefixes(str(op), av, n), n)
    return heads


def _item_prefixes(name: str, av: Any, n: int) -> set[str] | None:
    if name in ("ASSERT_NOT", "ASSERT", "AT"):
        return {""}
    if name == "LITERAL":
        return {chr(av).lower()}
    if name == "IN":
        chars, _ = first_chars([(name, av)])
        return chars
    if name == "SUBPATTERN":
        return prefixes(av[-1], n)
    if name == "BRANCH":
        found: set[str] = set()
        for branch in av[1]:
            more = prefixes(branch, n)
            if more is None:
                return None
            found |= more
        return found
    if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        least, most, body = av
        once = prefixes(body, n)
        found = set()
        power: set[str] | None = {""}
        count = 0
        while power is not None:
            if count >= least:
                found |= power
            grown = _joined(power, once, n)
            if count == most or grown == power:
                break
            power, count = grown, count + 1
        return None if power is None else found
    return None
