from classifier import Fact, FactValue, Mechanism, classify
from classifier.lexicon.words import NEGATION
from classifier.negation import NegationScopes


def _negated(text: str, cue: str) -> bool:
    start = text.index(cue)
    return NegationScopes(text).find(start, start + len(cue)) is not None


def test_chinese_negation_reaches_the_update_phrase() -> None:
    assert _negated("论文没有用环境回报更新 agent policy", "更新 agent policy")


def test_negation_stops_at_a_contrast_conjunction() -> None:
    assert not _negated("没有人工标注，但用 GRPO 更新策略", "GRPO")


def test_er_fei_negates_the_alternative_only() -> None:
    text = "采用 evolution strategy，而非策略梯度式 RL"
    assert _negated(text, "策略梯度")
    assert not _negated(text, "evolution strategy")


def test_rather_than_and_instead_of_negate_what_follows() -> None:
    assert _negated("uses evolution strategies rather than policy gradient", "policy gradient")
    assert _negated("instead of RL, the agent is prompted", "RL")


def test_classing_verb_moves_the_scope_to_its_object() -> None:
    text = "不能反推环境论文自身属于 RL"
    assert not _negated(text, "环境论文")
    assert _negated(text, "RL")


def test_free_suffix_negates_the_word_before_it() -> None:
    assert _negated("a gradient-free method", "gradient")


def _trigger(text: str) -> str | None:
    m = NEGATION.search(text)
    return None if m is None else m.lastgroup


def test_frozen_negates_only_as_words_of_their_own() -> None:
    assert _trigger("the policy weights are frozen") == "after"
    assert _trigger("the LLM remains frozen") == "after"
    assert _trigger("runs on middleware frozen at v2 and firmware kept frozen") is None


def test_no_parameter_update_in_chinese_makes_rl_update_false() -> None:
    for phrase in ("运行时 supervisor 没有参数更新", "运行时 supervisor 无参数更新"):
        assert classify(phrase).fact(Fact.RL_UPDATE).value is FactValue.FALSE


def test_without_weight_update_is_not_an_update() -> None:
    s = classify("The agent improves through prompting alone, without any weight update.")
    assert s.mechanism is Mechanism.HARNESS
    assert s.fact(Fact.RL_UPDATE).value is FactValue.FALSE


def test_training_free_method_is_harness() -> None:
    s = classify("We propose a training-free agent that reuses a skill library of executable code.")
    assert s.mechanism is Mechanism.HARNESS
    assert not s.verdict.is_strict


def test_only_evaluates_fixed_models_is_environment() -> None:
    for text in (
        "The benchmark defines multi-step web tasks with a terminal reward, but the paper only evaluates fixed models.",
        "它定义多步环境和终局 reward，但原论文只评测固定模型，没有根据回报更新 policy。",
    ):
        s = classify(text)
        assert s.mechanism is Mechanism.ENVIRONMENT
        assert s.fact(Fact.RL_UPDATE).value is FactValue.FALSE


def test_instead_of_rl_the_agent_is_prompted() -> None:
    s = classify("Instead of RL, we prompt a frozen LLM with verbal reflections stored in episodic memory.")
    assert s.mechanism is Mechanism.HARNESS
