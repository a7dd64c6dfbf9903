"""``classify``: cues → mechanism and facts → verdict through the rubric."""

from __future__ import annotations

import re
from dataclasses import dataclass

from classifier.lexicon import CUE_BY_GROUP, Cue, scan
from classifier.negation import COMPARED, Negation, NegationScopes
from classifier.result import FactFinding, FactValue, Span, Suggestion
from classifier.taxonomy import Fact, Mechanism, Verdict, rubric_verdict
from classifier.text import focus, is_chinese, segments, working_text

# When scores tie, the mechanism that claims more wins.
PRIORITY: tuple[Mechanism, ...] = (
    Mechanism.POLICY_GRADIENT,
    Mechanism.PREFERENCE_OPTIMIZATION,
    Mechanism.EVOLUTION_STRATEGIES,
    Mechanism.SFT_DISTILLATION,
    Mechanism.INFERENCE_TIME_SEARCH,
    Mechanism.INFRASTRUCTURE,
    Mechanism.ENVIRONMENT,
    Mechanism.HARNESS,
)
# An explicit RL or preference algorithm ("GRPO", "DPO") is the method; the
# SFT, prompting or benchmark words around it are often baselines.
ALGORITHM_BONUS = {Mechanism.POLICY_GRADIENT: 2.0, Mechanism.PREFERENCE_OPTIMIZATION: 2.0}

UPDATED = re.compile(
    r"更新(?P<a>[^，。；,;：\n]{1,24}?(?:策略|参数|policy|模型))"
    r"|对\s*(?P<b>[^，。；,;\n]{1,30}?)\s*做\s*\S*\s*更新"
    r"|(?P<c>[A-Za-z][\w/-]*(?:[ -][\w/-]+){0,2} policy)\s*(?:根据|接受|通过)"
    r"|(?i:(?:updates?|updating|updated|optimi[sz]es?|optimi[sz]ing|fine-tunes?|fine-tuning|trains?|training)"
    r"\s+(?:the\s+|its\s+|their\s+|a\s+|an\s+)?(?P<d>(?:[\w/-]+\s+){0,3}?(?:policy|policies|parameters|"
    r"weights|agents?|models?|LLMs?)))"
)

ZH_MECHANISM = {
    Mechanism.POLICY_GRADIENT: "策略梯度",
    Mechanism.EVOLUTION_STRATEGIES: "参数空间进化策略",
    Mechanism.SFT_DISTILLATION: "SFT/蒸馏",
    Mechanism.PREFERENCE_OPTIMIZATION: "偏好优化",
    Mechanism.INFERENCE_TIME_SEARCH: "推理时搜索",
    Mechanism.HARNESS: "harness/脚手架",
    Mechanism.ENVIRONMENT: "环境/基准",
    Mechanism.INFRASTRUCTURE: "基础设施",
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


# An English abstract sets the problem before it speaks of itself: a
# sentence about what existing, prior or current work does ("Current LLMs
# often undergo SFT"), without "we", "this paper" or the work's name, weighs
# less towards the mechanism. (Discounting every sentence before the first
# "we" was tried and lost more than it won.)
AUTHORIAL = re.compile(
    r"(?i)(?<![A-Za-z])(?:we|our|us|here|this (?:paper|work|study|report|article|project|repository|library|"
    r"framework|toolkit|benchmark)|in this (?:paper|work))(?![A-Za-z])"
)
BACKGROUND = re.compile(
    r"(?i)(?<![A-Za-z])(?:(?:existing|current|prior|previous|conventional|traditional|typical|most) (?:[\w-]+ ){0,3}?"
    r"(?:methods|approaches|work|works|agents|models|LLMs|systems|techniques|research|efforts|pipelines|practices?|"
    r"paradigms?|frameworks|solutions)|recent (?:work|works|approaches|advances|methods|studies|efforts|research|"
    r"progress)|(?:some|many|other) (?:[\w-]+ )?(?:agents|methods|approaches|works|models|systems)|"
    r"(?:has|have) (?:proven|been shown|shown|demonstrated|achieved|emerged)|(?:is|are) (?:usually|typically|commonly|mostly|traditionally)|typically|usually|commonly|often (?:rely|relies|follow|follows|use|uses|undergo|undergoes|require|"
    r"requires))(?![A-Za-z])"
)
BACKGROUND_WEIGHT = 0.4
CONCESSIVE = re.compile(r"\s*(?i:while|although|though|whereas|despite)(?![A-Za-z])")
CONCEDED = re.compile(r"(?<![A-Za-z])(?i:while|although|though|whereas|despite)\s*$")


def _background(work: str, subject: str | None) -> list[tuple[int, int]]:
    """Spans of the English sentences that describe other work or the problem."""
    sentences: dict[int, tuple[int, int]] = {}
    for seg in segments(work):
        start, end = sentences.get(seg.sentence, (seg.start, seg.end))
        sentences[seg.sentence] = (min(start, seg.start), max(end, seg.end))
    name = (
        re.compile(rf"(?<![A-Za-z0-9]){re.escape(subject.strip())}(?![A-Za-z0-9])", re.IGNORECASE)
        if subject and subject.strip()
        else None
    )
    spans = []
    for a, b in sentences.values():
        if not BACKGROUND.search(work, a, b) or AUTHORIAL.search(work, a, b) or (name and name.search(work, a, b)):
            continue
        # "While recent advances ..., open problems remain in X": only the
        # concessive clause is background; the main clause states the problem.
        # (the segmenter may already have cut the sentence after "While")
        concession = CONCESSIVE.match(work, a, b) or CONCEDED.search(work, max(0, a - 12), a)
        comma = work.find(",", a, b) if concession else -1
        spans.append((a, comma) if comma >= 0 else (a, b))
    return spans


@dataclass(frozen=True)
class _Hit:
    start: int
    end: int
    cue: Cue
    negation: Negation | None
    background: bool = False

    @property
    def sign(self) -> float:
        return -self.negation.strength if self.negation else 1.0

    @property
    def scale(self) -> float:
        return BACKGROUND_WEIGHT if self.background else 1.0


def _hits(work: str, scopes: NegationScopes, background: list[tuple[int, int]]) -> list[_Hit]:
    hits: list[_Hit] = []
    for m in scan(work):
        cue = CUE_BY_GROUP[m.lastgroup or ""]
        if cue.role != "name":
            aside = any(a <= m.start() < b for a, b in background)
            hits.append(_Hit(m.start(), m.end(), cue, scopes.find(m.start(), m.end()), aside))
    return hits


def _span(text: str, hit: _Hit, decides: str) -> Span:
    return Span(hit.start, hit.end, text[hit.start:hit.end], decides, hit.negation is not None)


def _choose_mechanism(hits: list[_Hit]) -> tuple[Mechanism, dict[Mechanism, float]]:
    scores = {m: 0.0 for m in PRIORITY}
    for hit in hits:
        if hit.cue.mechanism is not None and hit.cue.weight:
            scores[hit.cue.mechanism] += hit.cue.weight * hit.sign * hit.scale
    # The bonus goes to the work's own named algorithm, never one in the
    # background; an RL or preference objective takes it from SFT, which is
    # then a stage or a baseline ("SFT ... ORPO", "SFT cold start, then GRPO").
    named = [h for h in hits if h.cue.algorithm and h.negation is None and not h.background and h.cue.mechanism]
    first = named[0] if named else None
    if first is not None and first.cue.mechanism is Mechanism.SFT_DISTILLATION:
        first = next((h for h in named if h.cue.mechanism in ALGORITHM_BONUS), first)
    if first is not None and first.cue.mechanism is not None:
        scores[first.cue.mechanism] += ALGORITHM_BONUS.get(first.cue.mechanism, 1.0)
    best = max(PRIORITY, key=lambda m: (scores[m], -PRIORITY.index(m)))
    if scores[best] <= 0:
        best = Mechanism.HARNESS
    return best, scores


def _fact_scores(hits: list[_Hit]) -> dict[Fact, float]:
    scores = {f: 0.0 for f in Fact}
    for hit in hits:
        if hit.cue.role == "assert" and hit.negation:
            continue
        if hit.negation and hit.negation.strength == COMPARED:
            continue  # a baseline's or a measured system's facts are not the work's
        for fact, weight in hit.cue.facts:
            # A negated "no X" cue turns round; a negated denial is weak.
            scores[fact] += weight * hit.sign if weight > 0 or not hit.negation else -weight * 0.3
    return scores


def _value(score: float) -> FactValue:
    if score > 0:
        return FactValue.TRUE
    if score < 0:
        return FactValue.FALSE
    return FactValue.UNKNOWN


def _facts(
    text: str, hits: list[_Hit], mechanism: Mechanism
) -> tuple[dict[Fact, FactValue], dict[Fact, list[Span]]]:
    scores = _fact_scores(hits)
    evidence: dict[Fact, list[Span]] = {f: [] for f in Fact}
    for hit in hits:
        for fact, _ in hit.cue.facts:
            if not (hit.cue.role == "assert" and hit.negation):
                evidence[fact].append(_span(text, hit, f"fact:{fact.value}"))
    values = {f: _value(scores[f]) for f in Fact}
    algorithm_hit = next(
        (h for h in hits if h.cue.algorithm and h.cue.mechanism is mechanism and not h.negation), None
    )
    # An RL objective has a scalar reward by definition.
    if (
        mechanism is Mechanism.POLICY_GRADIENT
        and algorithm_hit is not None
        and values[Fact.VERIFIABLE_REWARD] is FactValue.UNKNOWN
    ):
        values[Fact.VERIFIABLE_REWARD] = FactValue.TRUE
        evidence[Fact.VERIFIABLE_REWARD].append(_span(text, algorithm_hit, "fact:verifiable_reward"))
    values[Fact.RL_UPDATE] = _rl_update(mechanism, values, scores[Fact.RL_UPDATE])
    return values, evidence


def _rl_update(mechanism: Mechanism, values: dict[Fact, FactValue], score: float) -> FactValue:
    """Only an RL objective updates from the outcome: policy gradient, or
    preference optimisation on the agent's own outcome-judged rollouts."""
    if mechanism is Mechanism.POLICY_GRADIENT:
        return FactValue.TRUE if score > 0 else FactValue.FALSE
    if mechanism is Mechanism.PREFERENCE_OPTIMIZATION:
        own_rollouts = all(
            values[f] is FactValue.TRUE
            for f in (Fact.INTERACTIVE_ENV, Fact.MULTI_STEP, Fact.VERIFIABLE_REWARD)
        )
        return FactValue.TRUE if own_rollouts else FactValue.FALSE
    return FactValue.FALSE


def _updated(work: str, mechanism: Mechanism, rl_update: FactValue, scopes: NegationScopes) -> str | None:
    if rl_update is not FactValue.TRUE and mechanism is not Mechanism.EVOLUTION_STRATEGIES:
        return None
    for m in UPDATED.finditer(work):
        group = next(g for g in ("a", "b", "c", "d") if m.group(g))
        if scopes.find(m.start(group), m.end(group)) is None:
            return m.group(group).strip()
    return None


def _confidence(mechanism: Mechanism, scores: dict[Mechanism, float], values: dict[Fact, FactValue]) -> float:
    ranked = sorted(scores.values(), reverse=True)
    top = max(scores[mechanism], 0.0)
    second = max(ranked[1] if ranked[0] == scores[mechanism] else ranked[0], 0.0)
    margin = (top - second) / (top + 2.0)
    known = sum(v is not FactValue.UNKNOWN for v in values.values()) / len(values)
    return max(0.05, min(0.99, 0.3 + 0.5 * min(1.0, margin * 1.5) + 0.2 * known))


def _rationale(
    chinese: bool,
    mechanism: Mechanism,
    algorithm: str | None,
    values: dict[Fact, FactValue],
    narrow: bool,
    verdict: Verdict,
) -> str:
    if chinese:
        algo = f"（{algorithm}）" if algorithm else ""
        facts = "，".join(f"{ZH_FACT[f]}{MARK[values[f]]}" for f in Fact)
        extra = "；更新对象或动作空间较窄" if narrow and verdict is Verdict.STRICT_NARROW else ""
        return f"机制：{ZH_MECHANISM[mechanism]}{algo}；{facts}{extra} → {ZH_VERDICT[verdict]}"
    algo = f" ({algorithm})" if algorithm else ""
    facts = ", ".join(f"{EN_FACT[f]} {MARK[values[f]]}" for f in Fact)
    extra = "; narrow update target or action space" if narrow and verdict is Verdict.STRICT_NARROW else ""
    return f"{mechanism.label}{algo}; {facts}{extra} → {verdict.label}"


def classify(text: str, subject: str | None = None) -> Suggestion:
    """Suggest the mechanism, rubric facts and verdict for a text about a work.

    ``subject`` names the one work to judge when the text speaks of several.
    """
    work = working_text(text, focus(text, subject))
    scopes = NegationScopes(work)
    hits = _hits(work, scopes, [] if is_chinese(text) else _background(work, subject))
    mechanism, scores = _choose_mechanism(hits)
    values, fact_evidence = _facts(text, hits, mechanism)
    narrow = any(h.cue.narrow and not h.negation for h in hits)
    verdict = rubric_verdict(
        interactive_env=values[Fact.INTERACTIVE_ENV].holds,
        multi_step=values[Fact.MULTI_STEP].holds,
        verifiable_reward=values[Fact.VERIFIABLE_REWARD].holds,
        rl_update=values[Fact.RL_UPDATE].holds,
        mechanism=mechanism,
        narrow=narrow,
    )
    algorithm = next(
        (h.cue.algorithm for h in hits if h.cue.algorithm and h.cue.mechanism is mechanism and not h.negation),
        None,
    )
    evidence = [
        _span(text, h, f"mechanism:{h.cue.mechanism.value}")
        for h in hits
        if h.cue.mechanism is not None and h.cue.weight
    ]
    evidence += [_span(text, h, "narrow") for h in hits if h.cue.narrow]
    evidence += [span for spans in fact_evidence.values() for span in spans]
    evidence += [
        Span(h.negation.start, h.negation.end, text[h.negation.start:h.negation.end], "negation", True)
        for h in hits
        if h.negation is not None
    ]
    findings = tuple(FactFinding(f, values[f], tuple(fact_evidence[f])) for f in Fact)
    return Suggestion(
        mechanism=mechanism,
        verdict=verdict,
        facts=findings,
        algorithm=algorithm,
        updated=_updated(work, mechanism, values[Fact.RL_UPDATE], scopes),
        evidence=tuple(sorted(set(evidence), key=lambda s: (s.start, s.end, s.decides))),
        confidence=_confidence(mechanism, scores, values),
        rationale=_rationale(is_chinese(text), mechanism, algorithm, values, narrow, verdict),
        narrow=narrow and verdict is Verdict.STRICT_NARROW,
    )
