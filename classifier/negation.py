"""Negation and contrast scope: does a cue sit under "没有", "not", "rather than"…?

A trigger reaches forward to the end of its clause (at most ``WINDOW``
characters) unless a contrast conjunction ("但", "but", "whereas") comes
first. After a verb of classing ("归为", "属于", "classified as") the scope
starts at that verb: "不能反推环境论文属于 RL" denies the "RL", not the
environment paper. A few triggers ("-free", "保持冻结") negate the cue just
before them. Concessive and comparative triggers ("即使", "不等于", "unlike")
count half.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from enum import StrEnum

from classifier.lexicon import NEGATION, SCOPE_BREAK
from classifier.lexicon.starts import Guarded
from classifier.text import CLAUSE_END

WINDOW = 48
# "A, B, or C": a negation before A reaches C across at most this many items.
LIST_ITEMS = 3
LIST_OPEN = re.compile(r"\s*(?:or|nor|and)\s", re.IGNORECASE)
# A comparison names its baseline right after the trigger; a preposition
# ("on MATH", "with fewer updates") goes back to the work itself.
COMPARE_STOP = re.compile(r"(?i)(?<![A-Za-z])(?:on|in|across|with|by|while|at|using|from|under|when)(?![A-Za-z])")
WEAK = frozenset({"不等于", "即使", "即便", "unlike", "in contrast to", "in contrast with", "contrary to",
                  "even if", "even though"})
CLASSING_VERB = Guarded(re.compile(
    r"归为|属于|写成|标成|标为|视为|算作|当作|等同于|(?i:classified as|counted as|regarded as|"
    r"considered (?:as |to be )?|labell?ed as|described as)"
))


class Reach(StrEnum):
    """How a trigger bears on the cue it governs."""

    NEGATED = "negated"
    WEAKLY_NEGATED = "weakly negated"  # "unlike", "even if": the cue may still hold
    COMPARED = "compared"  # a cue under a comparison ("outperforms PPO") neither counts for nor against


@dataclass(frozen=True)
class Negation:
    """The trigger that negates a cue, and how far."""

    start: int
    end: int
    word: str
    reach: Reach


class NegationScopes:
    """Negation triggers of one text, ready to be asked about any cue span."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._before: list[tuple[int, int, str]] = []
        self._after: list[tuple[int, int, str]] = []
        self._compare: set[int] = set()
        for m in NEGATION.finditer(text):
            bucket = self._after if m.lastgroup == "after" else self._before
            bucket.append((m.start(), m.end(), m.group()))
            if m.lastgroup == "compare":
                self._compare.add(m.start())
        # Clauses matter only around a trigger; scope breaks and classing verbs only after one that reaches
        # forward (a break or verb counts from a trigger's end), so they are looked for from the first.
        triggered = bool(self._before or self._after)
        self._clause_ends = [m.start() for m in CLAUSE_END.finditer(text)] if triggered else []
        after = self._before[0][1] if self._before else None
        self._breaks = [m.start() for m in SCOPE_BREAK.finditer(text, after)] if after is not None else []
        self._verbs = [(m.start(), m.end()) for m in CLASSING_VERB.finditer(text, after)] if after is not None else []

    def _clause(self, pos: int) -> tuple[int, int]:
        i = bisect.bisect_right(self._clause_ends, pos - 1)
        start = self._clause_ends[i - 1] + 1 if i > 0 else 0
        end = self._clause_ends[i] if i < len(self._clause_ends) else len(self._text)
        return start, end

    def _list_start(self, clause_start: int, clause_end: int) -> int:
        """Where a list the cue's clause belongs to begins: "does not require
        supervised data, additional training, or reinforcement learning"
        negates every item. The cue's item must be short and open on
        "or/nor/and" or be followed by one; the walk back stops at the first
        long chunk, the one that holds the list's head."""
        text = self._text
        item = text[clause_start:clause_end]
        follows = text[clause_end:clause_end + 6]
        in_list = LIST_OPEN.match(item) or (follows.startswith(",") and LIST_OPEN.match(follows[1:]))
        if not in_list or len(item.split()) > 6:
            return clause_start
        start = clause_start
        for _ in range(LIST_ITEMS):
            if start == 0 or text[start - 1] != ",":
                break
            prev_start, prev_end = self._clause(start - 1)
            start = prev_start
            if len(text[prev_start:prev_end].split()) > 5:
                break
        return start

    def _reaches(self, trigger_end: int, cue_start: int, clause_end: int, window: int = WINDOW) -> bool:
        if cue_start - trigger_end > window:
            return False
        if any(trigger_end <= b < cue_start for b in self._breaks):
            return False
        for v_start, v_end in self._verbs:
            if trigger_end <= v_start and v_end <= clause_end:
                return cue_start >= v_end
        return True

    def find(self, start: int, end: int) -> Negation | None:
        """The negation covering the cue at ``start:end``, if any."""
        if not self._before and not self._after:
            return None
        clause_start, clause_end = self._clause(start)
        list_start = self._list_start(clause_start, clause_end)
        for t_start, t_end, word in reversed(self._before):
            if t_end > start:
                continue
            if t_start < list_start:
                break
            if t_start < clause_start and t_start in self._compare:
                break  # a comparison names one baseline, not a list
            if t_start in self._compare and COMPARE_STOP.search(self._text, t_end, start):
                continue  # "outperforms PPO on MATH": the benchmark is the work's own
            window = WINDOW if t_start >= clause_start else WINDOW + (clause_start - list_start)
            if self._reaches(t_end, start, clause_end, window):
                reach = (Reach.COMPARED if t_start in self._compare
                         else Reach.WEAKLY_NEGATED if word.lower() in WEAK else Reach.NEGATED)
                return Negation(t_start, t_end, word, reach)
        for t_start, t_end, word in self._after:
            if end <= t_start <= end + 2 and t_start <= clause_end:
                return Negation(t_start, t_end, word, Reach.NEGATED)
        return None
