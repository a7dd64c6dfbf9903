"""The wiki's taxonomy and rubric: mechanisms, rubric facts and verdicts.

These enums are the single source of truth; the Django models take their
``choices`` from them.
"""

from __future__ import annotations

from enum import Enum

from classifier.mechanisms import RECORD_BY_KEY, MechanismRecord


class Mechanism(str, Enum):
    """How a work changes an agent's behaviour."""

    POLICY_GRADIENT = "policy_gradient"
    EVOLUTION_STRATEGIES = "evolution_strategies"
    SFT_DISTILLATION = "sft_distillation"
    PREFERENCE_OPTIMIZATION = "preference_optimization"
    INFERENCE_TIME_SEARCH = "inference_time_search"
    HARNESS = "harness"
    ENVIRONMENT = "environment"
    INFRASTRUCTURE = "infrastructure"

    @property
    def record(self) -> MechanismRecord:
        return RECORD_BY_KEY[self.value]

    @property
    def label(self) -> str:
        return self.record.label_en

    @property
    def label_zh(self) -> str:
        return self.record.label_zh

    @property
    def colour(self) -> str:
        return self.record.colour


MECHANISM_LABELS: dict[Mechanism, str] = {m: m.label for m in Mechanism}
MECHANISM_LABELS_ZH: dict[Mechanism, str] = {m: m.label_zh for m in Mechanism}


class Verdict(str, Enum):
    """Whether a work is strict Agentic RL."""

    STRICT = "strict"
    STRICT_NARROW = "strict_narrow"
    ADJACENT = "adjacent"
    NOT_STRICT = "not_strict"

    @property
    def label(self) -> str:
        return VERDICT_LABELS[self]

    @property
    def is_strict(self) -> bool:
        return self in (Verdict.STRICT, Verdict.STRICT_NARROW)


VERDICT_LABELS: dict[Verdict, str] = {
    Verdict.STRICT: "Strict Agentic RL",
    Verdict.STRICT_NARROW: "Strict (narrow)",
    Verdict.ADJACENT: "Adjacent",
    Verdict.NOT_STRICT: "Not strict",
}


class Fact(str, Enum):
    """The four rubric facts; strict Agentic RL needs all of them."""

    INTERACTIVE_ENV = "interactive_env"
    MULTI_STEP = "multi_step"
    VERIFIABLE_REWARD = "verifiable_reward"
    RL_UPDATE = "rl_update"

    @property
    def label(self) -> str:
        return FACT_LABELS[self]


FACT_LABELS: dict[Fact, str] = {
    Fact.INTERACTIVE_ENV: "Executable agent interacting with an environment, tools or a browser",
    Fact.MULTI_STEP: "Multi-step or tool-use trajectories",
    Fact.VERIFIABLE_REWARD: "Verifiable or scalar reward",
    Fact.RL_UPDATE: "RL optimisation updates the policy/parameters from the interaction outcome",
}


def rubric_verdict(
    *,
    interactive_env: bool | None,
    multi_step: bool | None,
    verifiable_reward: bool | None,
    rl_update: bool | None,
    mechanism: Mechanism,
    narrow: bool = False,
) -> Verdict:
    """The verdict the rubric gives for the four facts.

    A fact is ``True``, ``False`` or ``None`` (unknown); only a fact known to hold counts
    towards strict, so an unknown one never makes a work strict. ``narrow`` says that what is updated is not the acting agent's own policy,
    or that the action space is narrow (Astar, LBYL).
    """
    interaction = interactive_env is True and multi_step is True and verifiable_reward is True
    if interaction and rl_update is True:
        return Verdict.STRICT_NARROW if narrow else Verdict.STRICT
    if interaction and mechanism.record.adjacent_when_interactive:
        return Verdict.ADJACENT
    return Verdict.NOT_STRICT
