"""Which existing works a cited title is close to, when it is not theirs exactly (plain Python).

A page cites a work by its title or short name. A title equal to a work's, once normalised, is that work; one
that differs by a letter or two (a typo, a plural), or by a subtitle dropped or added, is close to it: the
editor is asked "did you mean …" instead of getting a second work. Titles whose numbers differ (``Llama 2`` and
``Llama 3``, ``MiMo-V2.5`` and ``MiMo-V2.6``) are different works, never close.

:class:`CloseMatcher` is built once from every work's title and short name; each look-up then scans one
string in C (``str.find``) rather than comparing the title with every work in Python.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher

from wiki.references.identifiers import normalize_title
from wiki.references.matching import main_title

# How alike two normalised titles must be (difflib's ratio) to be offered as the same work.
CLOSE_RATIO = 0.88
# A cited title is cut into this many pieces; a title within PIECES - 1 edits of it holds one of them unchanged.
PIECES = 4
# Shorter titles are compared with every work's strings of about the same length instead.
SHORT = 16
SUGGESTIONS = 3
# The strings a piece of a cited title is looked for in, at most: a piece that many works share ("Title of …", a
# series' name) says little, and the title's other pieces find its work; without a bound, a page citing a thousand
# titles of one pattern compared each with every work.
PIECE_HITS = 50
_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True)
class WorkRef:
    """A work as a citation report names it."""

    slug: str
    short_name: str
    title: str


def _numbers(text: str) -> list[str]:
    return _DIGITS.findall(text)


def _alike(a: str, b: str) -> bool:
    if a == b or _numbers(a) != _numbers(b):
        return a == b
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return matcher.real_quick_ratio() >= CLOSE_RATIO and matcher.quick_ratio() >= CLOSE_RATIO \
        and matcher.ratio() >= CLOSE_RATIO


class CloseMatcher:
    """The works close to a cited title, from one list of works (any objects with slug, short_name and title)."""

    def __init__(self, works: Iterable[WorkRef]) -> None:
        self.works: list[WorkRef] = []
        strings: list[str] = []
        owners: list[int] = []
        self.by_main: dict[str, list[int]] = {}
        self.by_full: dict[str, list[int]] = {}
        self.by_name: dict[str, list[int]] = {}
        self.short: dict[int, list[int]] = {}
        for index, work in enumerate(works):
            self.works.append(work)
            full, main, name = normalize_title(work.title), main_title(work.title), normalize_title(work.short_name)
            self.by_full.setdefault(full, []).append(index)
            self.by_name.setdefault(name, []).append(index)
            if main:
                self.by_main.setdefault(main, []).append(index)
            for text in dict.fromkeys(t for t in (full, main, name) if t):
                strings.append(text)
                owners.append(index)
                if len(text) < SHORT * 2:
                    self.short.setdefault(len(text), []).append(len(strings) - 1)
        # One string holding every title, each on its own line; starts[i] is where strings[i] begins.
        self.starts: list[int] = []
        offset = 0
        for text in strings:
            self.starts.append(offset)
            offset += len(text) + 1
        self.blob = "\n".join(strings)
        self.strings = strings
        self.owners = owners

    def close(self, title: str, *, limit: int = SUGGESTIONS) -> list[WorkRef]:
        """Up to ``limit`` works close to ``title`` but not equal to it once normalised, most alike first."""
        norm, main = normalize_title(title), main_title(title)
        if not norm:
            return []
        scores: dict[int, float] = {}
        # A subtitle added (cited "ReAct: …" for the work "ReAct"), dropped (cited "ReAct" for "ReAct: …"), or changed.
        for key, table in ((main, self.by_full), (norm, self.by_main), (main, self.by_main)):
            if key and len(key) >= 3:
                for index in table.get(key, []):
                    scores[index] = max(scores.get(index, 0.0), 0.9)
        for index in self._candidates(norm):
            text = self.strings[index]
            if text != norm and _alike(norm, text):
                owner = self.owners[index]
                scores[owner] = max(scores.get(owner, 0.0), SequenceMatcher(None, norm, text, autojunk=False).ratio())
        for index in self.by_full.get(norm, []) + self.by_name.get(norm, []):
            scores.pop(index, None)  # the same title or short name: a match, not a suggestion
        ranked = sorted(scores, key=lambda i: (-scores[i], self.works[i].title))
        return [self.works[i] for i in ranked[:limit]]

    def _candidates(self, norm: str) -> Iterable[int]:
        """Indexes into ``strings`` that could be within a few edits of ``norm``: at most ``PIECES * PIECE_HITS``."""
        if len(norm) < SHORT:
            low, high = int(len(norm) * CLOSE_RATIO / (2 - CLOSE_RATIO)), int(len(norm) * (2 - CLOSE_RATIO) / CLOSE_RATIO) + 1
            for length in range(low, high + 1):
                yield from self.short.get(length, [])
            return
        size = len(norm) // PIECES
        pieces = {norm[i * size : (i + 1) * size if i < PIECES - 1 else len(norm)] for i in range(PIECES)}
        seen: set[int] = set()
        for piece in pieces:
            at, hits = self.blob.find(piece), 0
            while at >= 0 and hits < PIECE_HITS:
                index = bisect_right(self.starts, at) - 1
                hits += 1
                if index not in seen:
                    seen.add(index)
                    yield index
                at = self.blob.find(piece, self.starts[index + 1] if index + 1 < len(self.starts) else len(self.blob))
