from typing import Any

import pytest

from classifier import FactValue, Mechanism, Verdict, rubric_verdict

# Keyword arguments of rubric_verdict, besides the mechanism.
KNOWN: dict[str, Any] = {"interactive_env": True, "multi_step": True, "verifiable_reward": True, "rl_update": True}


def test_all_four_facts_known_to_hold_give_strict() -> None:
    assert rubric_verdict(**KNOWN, mechanism=Mechanism.POLICY_GRADIENT) is Verdict.STRICT


@pytest.mark.parametrize("fact", sorted(KNOWN))
def test_an_unknown_fact_never_makes_a_work_strict(fact: str) -> None:
    facts = {**KNOWN, fact: None}
    assert rubric_verdict(**facts, mechanism=Mechanism.POLICY_GRADIENT) is Verdict.NOT_STRICT


def test_evolution_strategies_are_adjacent_only_when_the_interaction_facts_are_known() -> None:
    known = {**KNOWN, "rl_update": False}
    assert rubric_verdict(**known, mechanism=Mechanism.EVOLUTION_STRATEGIES) is Verdict.ADJACENT
    unknown_reward = {**known, "verifiable_reward": None}
    assert rubric_verdict(**unknown_reward, mechanism=Mechanism.EVOLUTION_STRATEGIES) is Verdict.NOT_STRICT


@pytest.mark.parametrize(("stored", "value"), [(True, FactValue.TRUE), (False, FactValue.FALSE), (None, FactValue.UNKNOWN)])
def test_a_stored_fact_and_the_classifiers_value_convert_both_ways(stored: bool | None, value: FactValue) -> None:
    assert FactValue.of(stored) is value
    assert value.as_bool is stored
