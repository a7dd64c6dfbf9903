import pytest

from classifier import Fact, FactValue, Mechanism, Suggestion, Verdict, classify

MECHANISM_CASES = [
    ("We train the web agent with PPO on binary task-success rewards over multi-turn browser episodes.",
     Mechanism.POLICY_GRADIENT),
    ("用 GRPO 在可执行终端环境中更新 agent policy，奖励来自单元测试。", Mechanism.POLICY_GRADIENT),
    ("We fine-tune all model weights with evolution strategies, scoring each perturbation by episodic return.",
     Mechanism.EVOLUTION_STRATEGIES),
    ("用进化策略按轨迹回报更新完整参数。", Mechanism.EVOLUTION_STRATEGIES),
    ("We collect successful trajectories from a teacher and apply supervised fine-tuning to a small model.",
     Mechanism.SFT_DISTILLATION),
    ("用 verifier 筛选成功轨迹后做 SFT 蒸馏到小模型。", Mechanism.SFT_DISTILLATION),
    ("We align the model with DPO on a static dataset of human preference pairs.",
     Mechanism.PREFERENCE_OPTIMIZATION),
    ("在静态偏好数据上用 DPO 做偏好优化。", Mechanism.PREFERENCE_OPTIMIZATION),
    ("At test time the agent runs Monte Carlo tree search over actions with an LLM value function.",
     Mechanism.INFERENCE_TIME_SEARCH),
    ("推理时用蒙特卡洛树搜索选择动作，无参数更新。", Mechanism.INFERENCE_TIME_SEARCH),
    ("A prompting scaffold with self-reflection and a skill library; the model weights are never updated.",
     Mechanism.HARNESS),
    ("外部 harness 演化与提示词优化，没有参数更新。", Mechanism.HARNESS),
    ("We introduce a benchmark of 800 realistic web tasks and evaluate several frontier models.",
     Mechanism.ENVIRONMENT),
    ("该工作提供可供 RL 使用的环境与判分，只评测固定模型。", Mechanism.ENVIRONMENT),
    ("An open-source distributed RL training framework with high rollout throughput and vLLM inference.",
     Mechanism.INFRASTRUCTURE),
    ("提供分布式训练与 rollout 推理的基础设施。", Mechanism.INFRASTRUCTURE),
]


@pytest.mark.parametrize(("text", "mechanism"), MECHANISM_CASES)
def test_each_mechanism_is_recognised_in_both_languages(text: str, mechanism: Mechanism) -> None:
    assert classify(text).mechanism is mechanism


@pytest.mark.parametrize(
    "title",
    ["Multi-Harness RL", "prime-rl", "The ultimate guide to multi-harness RL", "Agentic ESOpt for Long-Horizon RL"],
)
def test_rl_in_a_name_or_title_decides_nothing(title: str) -> None:
    suggestion = classify(title)
    assert not suggestion.verdict.is_strict
    assert suggestion.fact(Fact.RL_UPDATE).value is not FactValue.TRUE or suggestion.confidence < 0.7


def test_grpo_on_single_turn_math_is_policy_gradient_but_not_strict() -> None:
    s = classify("We apply GRPO with rule-based accuracy rewards to single-turn math problems, without tools.")
    assert s.mechanism is Mechanism.POLICY_GRADIENT
    assert s.verdict is Verdict.NOT_STRICT
    assert s.fact(Fact.MULTI_STEP).value is FactValue.FALSE


def test_dpo_on_own_environment_rollouts_judged_by_outcome_is_strict() -> None:
    s = classify(
        "The agent explores the web environment, and its own successful and failed trajectories, ranked by the "
        "task-success reward, form preference pairs for DPO updates."
    )
    assert s.mechanism is Mechanism.PREFERENCE_OPTIMIZATION
    assert s.verdict is Verdict.STRICT


def test_dpo_on_static_preferences_is_not_strict() -> None:
    assert classify("We fine-tune with DPO on a static dataset of human preference pairs.").verdict is (
        Verdict.NOT_STRICT
    )


def test_es_with_trajectory_return_is_adjacent() -> None:
    s = classify(
        "The LLM agent acts in terminal environments over many turns; evolution strategies update the full "
        "parameters from the episodic return of a verifiable task reward."
    )
    assert s.verdict is Verdict.ADJACENT
    assert s.fact(Fact.RL_UPDATE).value is FactValue.FALSE


def test_updating_a_correction_policy_around_a_frozen_agent_is_narrow() -> None:
    s = classify(
        "We freeze the GUI agent and train only a correction policy with GRPO from environment outcomes of "
        "multi-step browser tasks."
    )
    assert s.verdict is Verdict.STRICT_NARROW
    assert s.narrow


def test_verdict_comes_from_facts_not_from_the_mechanism() -> None:
    s = classify("We use PPO.")
    assert s.mechanism is Mechanism.POLICY_GRADIENT
    assert s.verdict is Verdict.NOT_STRICT


def test_evidence_offsets_point_into_the_original_text() -> None:
    text = "FACET（来源：X）在可执行 terminal 环境中用 verifier 筛选成功轨迹，再做 SFT。"
    s = classify(text, "FACET")
    assert s.evidence
    for span in s.evidence:
        assert text[span.start:span.end] == span.cue


def test_rationale_is_in_the_language_of_the_text() -> None:
    assert "机制" in classify("用 GRPO 在终端环境中更新策略。").rationale
    assert "Policy gradient" in classify("We train the agent with GRPO in a terminal.").rationale


def test_a_suggestion_states_its_rationale_in_either_language() -> None:
    english = classify("We train the agent with GRPO in a terminal.")
    chinese = classify("用 GRPO 在终端环境中更新策略。")
    assert english.rationale_in(chinese=False) == english.rationale
    assert chinese.rationale_in(chinese=True) == chinese.rationale
    assert english.rationale_in(chinese=True).startswith("机制：策略梯度（GRPO）；")
    assert chinese.rationale_in(chinese=False).startswith("Policy gradient (GRPO); ")
    marks = {FactValue.TRUE: "✓", FactValue.FALSE: "✗", FactValue.UNKNOWN: "（未知）"}
    assert english.rationale_in(chinese=True).endswith(
        f"RL 更新{marks[english.fact(Fact.RL_UPDATE).value]} → "
        + {Verdict.STRICT: "严格 Agentic RL", Verdict.NOT_STRICT: "非严格"}[english.verdict]
    )


def test_an_unknown_fact_is_said_in_words_in_chinese() -> None:
    text = "We study how agents plan."
    assert classify(text).fact(Fact.VERIFIABLE_REWARD).value is FactValue.UNKNOWN
    assert "可验证奖励（未知）" in classify(text).rationale_in(chinese=True)
    assert "reward ?" in classify(text).rationale_in(chinese=False)


def test_algorithm_and_updated_are_extracted() -> None:
    s = classify("We use clipped GRPO to update the worker policy from terminal rollouts with outcome rewards.")
    assert s.algorithm == "GRPO"
    assert s.updated is not None and "policy" in s.updated


def test_suggestion_to_dict_uses_enum_values() -> None:
    data = classify("用 GRPO 在终端环境中更新策略。").to_dict()
    assert data["mechanism"] == "policy_gradient"
    assert data["verdict"] in {v.value for v in Verdict}
    assert set(data["facts"]) == {f.value for f in Fact}
    assert 0 <= data["confidence"] <= 1


def test_suggestion_is_frozen() -> None:
    s = classify("We use PPO.")
    with pytest.raises(AttributeError):
        s.verdict = Verdict.STRICT  # type: ignore[misc]
    assert isinstance(s, Suggestion)


def test_classifier_never_imports_django() -> None:
    import pathlib
    import re

    import classifier

    root = pathlib.Path(classifier.__file__).parent
    for path in root.glob("*.py"):
        assert not re.search(r"^\s*(from|import)\s+django", path.read_text(encoding="utf-8"), re.M), path


def test_every_mechanism_has_one_record_with_both_labels_and_a_colour() -> None:
    from classifier.mechanisms import RECORD_BY_KEY

    assert set(RECORD_BY_KEY) == {m.value for m in Mechanism}
    for mechanism in Mechanism:
        assert mechanism.label and mechanism.label_zh and mechanism.colour.startswith("#")


def test_a_fact_without_any_evidence_is_unknown() -> None:
    from classifier import Fact, FactValue

    s = classify("We fine-tune the model with DPO.")
    assert s.fact(Fact.MULTI_STEP).value is FactValue.UNKNOWN


@pytest.mark.parametrize(("text", "update"), [
    ("A cookbook of Sichuan recipes.", FactValue.UNKNOWN),
    # a cue says what the work is (a dataset): then it updates nothing
    ("We release a dataset of 10k annotated photos of cats.", FactValue.FALSE),
    ("这是一本菜谱。", FactValue.UNKNOWN),
    ("We present a new method and evaluate it.", FactValue.UNKNOWN),
    ("本文提出一种新方法。", FactValue.UNKNOWN),
])
def test_a_text_that_says_nothing_of_the_rubric_leaves_its_facts_unknown(text: str, update: FactValue) -> None:
    s = classify(text)
    for fact in (Fact.INTERACTIVE_ENV, Fact.MULTI_STEP, Fact.VERIFIABLE_REWARD):
        finding = s.fact(fact)
        assert finding.value is FactValue.UNKNOWN, (fact, finding)
        assert not finding.evidence
    assert s.fact(Fact.RL_UPDATE).value is update
    assert s.verdict is Verdict.NOT_STRICT


@pytest.mark.parametrize("text", [
    "We build a prompting harness around a frozen model: tools, memory and retries, with no training.",
    "我们构建了一个 harness，为冻结的模型提供工具和记忆，不做任何训练。",
])
def test_a_work_whose_mechanism_a_cue_names_updates_nothing_unless_it_is_an_rl_objective(text: str) -> None:
    s = classify(text)

    assert s.mechanism is Mechanism.HARNESS
    assert s.fact(Fact.RL_UPDATE).value is FactValue.FALSE


def test_a_negated_cue_makes_its_fact_false_never_true() -> None:
    s = classify("We propose a prompting scaffold for web agents; there is no environment and no reward, "
                 "and the model weights stay frozen.")
    assert s.mechanism is Mechanism.HARNESS
    reward = s.fact(Fact.VERIFIABLE_REWARD)
    assert reward.value is FactValue.FALSE
    assert [(span.cue, span.negated) for span in reward.evidence] == [("reward", True)]
    assert reward.evidence[0].contribution < 0
    assert "reward ✗" in s.rationale


@pytest.mark.parametrize("text", [
    "We do not use reinforcement learning; instead we distill GPT-4 trajectories into a small model with SFT.",
    "本文不是强化学习方法，而是一个评测基准，用于评估智能体在终端环境中的多步任务。",
])
def test_denying_a_mechanism_says_nothing_of_the_facts_it_would_imply(text: str) -> None:
    # "Not an RL method" is no evidence that there is no reward: a benchmark's tasks may well be scored.
    s = classify(text)
    assert not s.mechanism.record.facts_decide
    reward = s.fact(Fact.VERIFIABLE_REWARD)
    assert reward.value is FactValue.UNKNOWN
    assert not reward.evidence


def test_evidence_spans_carry_their_feature_contribution() -> None:
    s = classify("We train the web agent with GRPO in a live browser environment using the task success reward.")
    grpo = [span for span in s.evidence if span.cue == "GRPO" and span.decides.startswith("mechanism:")]
    assert grpo and grpo[0].contribution > 0
    assert 0 < s.confidence < 1
