"""The values ``classify`` returns: frozen dataclasses and named tuples with a JSON form."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, NamedTuple

from classifier.taxonomy import Fact, Mechanism, Verdict


class FactValue(str, Enum):
    """What the text says about one rubric fact."""

    TRUE = "true"
    FALSE = "false"
    UNKNOWN = "unknown"

    @property
    def holds(self) -> bool:
        return self is FactValue.TRUE

    @property
    def as_bool(self) -> bool | None:
        """``True`` or ``False`` when known, ``None`` when unknown (how the wiki stores a fact)."""
        return None if self is FactValue.UNKNOWN else self is FactValue.TRUE

    @classmethod
    def of(cls, value: bool | None) -> FactValue:
        """The value of a fact stored as ``True``, ``False`` or ``None`` (unknown)."""
        return cls.UNKNOWN if value is None else cls.TRUE if value else cls.FALSE


class Span(NamedTuple):
    """A cue found in the original text and what it decided.

    ``start``/``end`` are offsets into the text given to ``classify``;
    ``negated`` says the cue sits inside a negation or contrast scope;
    ``contribution`` is what the cue's feature added to the fitted model's
    score (its share, when several spans make one feature): for a fact
    (``decides`` "fact:…"), to the fact being true, so negative weighs
    towards false; for the mechanism ("mechanism:…", naming the mechanism
    the cue speaks for), to the suggested mechanism.

    A named tuple rather than a dataclass: a suggestion holds dozens, and a tuple is made in a third of the time.
    """

    start: int
    end: int
    cue: str
    decides: str
    negated: bool = False
    contribution: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "start": self.start,
            "end": self.end,
            "cue": self.cue,
            "decides": self.decides,
            "negated": self.negated,
            "contribution": round(self.contribution, 3),
        }


@dataclass(frozen=True)
class FactFinding:
    """One rubric fact, its value and the spans that decided it."""

    fact: Fact
    value: FactValue
    evidence: tuple[Span, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "fact": self.fact.value,
            "value": self.value.value,
            "evidence": [span.to_dict() for span in self.evidence],
        }


@dataclass(frozen=True)
class Suggestion:
    """A suggested classification of one work, for an editor to confirm."""

    mechanism: Mechanism
    verdict: Verdict
    facts: tuple[FactFinding, ...]
    algorithm: str | None
    updated: str | None
    evidence: tuple[Span, ...]
    confidence: float
    rationale: str
    narrow: bool = False

    def rationale_in(self, *, chinese: bool) -> str:
        """``rationale`` in Chinese or in English, whatever the language of the text suggested for."""
        values = {finding.fact: finding.value for finding in self.facts}
        return rationale(self.mechanism, self.algorithm, values, self.verdict, chinese=chinese)

    def fact(self, fact: Fact) -> FactFinding:
        """The finding for ``fact`` (every suggestion has all four)."""
        for finding in self.facts:
            if finding.fact is fact:
                return finding
        raise KeyError(fact)

    def to_dict(self) -> dict[str, Any]:
        return {
            "mechanism": self.mechanism.value,
            "verdict": self.verdict.value,
            "facts": {f.fact.value: f.to_dict() for f in self.facts},
            "algorithm": self.algorithm,
            "updated": self.updated,
            "narrow": self.narrow,
            "evidence": [span.to_dict() for span in self.evidence],
            "confidence": round(self.confidence, 3),
            "rationale": self.rationale,
        }


ZH_VERDICT = {
    Verdict.STRICT: "严格 Agentic RL",
    Verdict.STRICT_NARROW: "严格但较窄",
    Verdict.ADJACENT: "相邻（参数空间 ES）",
    Verdict.NOT_STRICT: "非严格",
}
ZH_FACT = {
    Fact.INTERACTIVE_ENV: "可执行环境",
    Fact.MULTI_STEP: "多步轨迹",
    Fact.VERIFIABLE_REWARD: "可验证奖励",
    Fact.RL_UPDATE: "RL 更新",
}
EN_FACT = {
    Fact.INTERACTIVE_ENV: "env",
    Fact.MULTI_STEP: "multi-step",
    Fact.VERIFIABLE_REWARD: "reward",
    Fact.RL_UPDATE: "RL update",
}
MARK = {FactValue.TRUE: "✓", FactValue.FALSE: "✗", FactValue.UNKNOWN: "?"}
# In Chinese an unknown fact is said in words, "可执行环境（未知）": a question mark, half or full width, reads as
# punctuation beside the comma that follows.
ZH_MARK = {**MARK, FactValue.UNKNOWN: "（未知）"}


def rationale(
    mechanism: Mechanism, algorithm: str | None, values: dict[Fact, FactValue], verdict: Verdict, *, chinese: bool
) -> str:
    """The one-line reason for a verdict: the mechanism, each rubric fact's value and the verdict, in Chinese or
    English ("Policy gradient (GRPO); env ✓, multi-step ✓, reward ✓, RL update ✓ → Strict Agentic RL")."""
    narrow = verdict is Verdict.STRICT_NARROW
    if chinese:
        algo = f"（{algorithm}）" if algorithm else ""
        facts = "，".join(f"{ZH_FACT[f]}{ZH_MARK[values[f]]}" for f in Fact)
        extra = "；更新对象或动作空间较窄" if narrow else ""
        return f"机制：{mechanism.label_zh}{algo}；{facts}{extra} → {ZH_VERDICT[verdict]}"
    algo = f" ({algorithm})" if algorithm else ""
    facts = ", ".join(f"{EN_FACT[f]} {MARK[values[f]]}" for f in Fact)
    extra = "; narrow update target or action space" if narrow else ""
    return f"{mechanism.label}{algo}; {facts}{extra} → {verdict.label}"
