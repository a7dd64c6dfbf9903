"""What a cue is and how lexicon entries are written."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from classifier.taxonomy import Fact, Mechanism

ENV = Fact.INTERACTIVE_ENV
STEP = Fact.MULTI_STEP
REWARD = Fact.VERIFIABLE_REWARD
UPDATE = Fact.RL_UPDATE

PG = Mechanism.POLICY_GRADIENT
ES = Mechanism.EVOLUTION_STRATEGIES
SFT = Mechanism.SFT_DISTILLATION
PREF = Mechanism.PREFERENCE_OPTIMIZATION
SEARCH = Mechanism.INFERENCE_TIME_SEARCH
HARNESS = Mechanism.HARNESS
ENVIRONMENT = Mechanism.ENVIRONMENT
INFRA = Mechanism.INFRASTRUCTURE


class CueRole(StrEnum):
    """What a cue means to the engine besides its weights."""

    PLAIN = ""
    NAME = "name"  # a work's name ("X-RL"): evidence of nothing by itself
    ASSERT = "assert"  # a statement of the facts that a negation cancels rather than inverts
    FROZEN = "frozen"  # "frozen", "kept fixed": no update, unless negated
    # The training data are the agent's own rollouts ("its own trajectories", "online DPO",
    # "successful and failed attempts"): what preference optimisation needs to be strict.
    OWN_ROLLOUTS = "own rollouts"


@dataclass(frozen=True, eq=False)
class Cue:
    """One lexicon entry. ``facts`` holds signed weights; ``role`` marks
    cues with a special meaning to the engine. Each entry is itself (compared
    and hashed by identity), so looking one up costs no more than a name."""

    pattern: str
    mechanism: Mechanism | None = None
    weight: float = 0.0
    facts: tuple[tuple[Fact, float], ...] = ()
    algorithm: str | None = None
    case_sensitive: bool = False
    role: CueRole = CueRole.PLAIN
    narrow: bool = False


def _word(pattern: str) -> str:
    """``pattern`` as a whole Latin word, also when glued to Chinese text."""
    return rf"(?<![A-Za-z0-9_])(?:{pattern})(?![A-Za-z0-9_])"


def _split_top(pattern: str) -> list[str]:
    """The top-level alternatives of a pattern."""
    parts: list[str] = []
    depth = 0
    in_class = False
    start = 0
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
        i += 1
    parts.append(pattern[start:])
    return parts


def _cues(
    mechanism: Mechanism | None,
    weight: float,
    *patterns: str,
    facts: tuple[tuple[Fact, float], ...] = (),
    algorithm: str | None = None,
    cs: bool = False,
    role: CueRole = CueRole.PLAIN,
    word: bool = True,
    narrow: bool = False,
) -> list[Cue]:
    return [
        Cue(_word(alt) if word else alt, mechanism, weight, facts, algorithm, cs, role, narrow)
        for p in patterns
        for alt in _split_top(p)
    ]


