"""One record per mechanism: everything the classifier and the app need to know of it.

A new mechanism is one ``MechanismRecord`` here (and its key in ``Mechanism``)
plus its cues in ``classifier/lexicon``; labels in both languages, the graph
colour and the rationale's wording come from the record, and the fitted
weights learn it from labelled examples.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MechanismRecord:
    """How a work changes an agent's behaviour, as the wiki shows it."""

    key: str
    label_en: str
    label_zh: str
    colour: str
    # Whether the mechanism is an RL objective that can update the policy
    # from the interaction outcome (the rubric's fourth fact).
    rl_objective: bool = False
    # Whether the update can be a strict one only when the training data are
    # the agent's own outcome-judged rollouts (preference optimisation).
    needs_own_rollouts: bool = False
    # Facts 1-3 with this update give "adjacent" rather than "not strict".
    adjacent_when_interactive: bool = False

    @property
    def facts_decide(self) -> bool:
        """Whether the rubric's facts can change this mechanism's verdict (an RL objective, or an update
        that is adjacent when interactive): labelled works of it are what the fact models learn from."""
        return self.rl_objective or self.adjacent_when_interactive


MECHANISM_RECORDS: tuple[MechanismRecord, ...] = (
    MechanismRecord("policy_gradient", "Policy gradient", "策略梯度", "#3172bd", rl_objective=True),
    MechanismRecord("evolution_strategies", "Evolution strategies", "参数空间进化策略", "#855fb2",
                    adjacent_when_interactive=True),
    MechanismRecord("sft_distillation", "SFT / distillation", "SFT/蒸馏", "#bd7d1b"),
    MechanismRecord("preference_optimization", "Preference optimisation", "偏好优化", "#c2477a",
                    rl_objective=True, needs_own_rollouts=True),
    MechanismRecord("inference_time_search", "Inference-time search", "推理时搜索", "#299a8c"),
    MechanismRecord("harness", "Harness / scaffold", "harness/脚手架", "#8a6d3b"),
    MechanismRecord("environment", "Environment / benchmark", "环境/基准", "#5a8f3a"),
    MechanismRecord("infrastructure", "Infrastructure", "基础设施", "#6b7280"),
)

RECORD_BY_KEY: dict[str, MechanismRecord] = {record.key: record for record in MECHANISM_RECORDS}
