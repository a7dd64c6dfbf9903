"""Features that say where a work describes itself, what it trains, and which words it uses."""

import json

import pytest

from classifier import Fact, FactValue, Mechanism, classify
from classifier.engine import analyse
from classifier.features import LEAD_PREFIX, WORD_PREFIX
from classifier.model import DEFAULT_WEIGHTS, current_weights


def test_a_mechanism_cue_in_the_works_own_description_is_a_lead_feature() -> None:
    text = ("Agents often fail on long tasks. We introduce a benchmark of 300 tasks in live websites and evaluate "
            "frontier models on it.")
    features = analyse(text).features.counts
    assert features.get("lead:environment", 0) >= 1
    assert "first:environment" in features


def test_the_opening_line_of_a_readme_is_where_it_says_what_it_is() -> None:
    text = ("# Foo\n一个开源的智能体开发框架，支持工具调用与记忆。\n\n## 安装\n" + "按照文档安装依赖，配置模型的访问密钥。\n" * 8
            + "## 结果\n在多个基准上评测。")
    counts = analyse(text).features.counts
    assert counts.get("lead:harness", 0) >= 1
    assert counts.get("zh:harness", 0) >= 1
    # The benchmarks named further down are not what the project says it is.
    assert "lead:environment" not in counts


def test_a_text_that_trains_nothing_is_marked_untrained() -> None:
    assert "untrained" in analyse("We prompt a frozen LLM with a planner and a memory module.").features.counts
    assert "untrained" not in analyse("We train the web agent with GRPO on task success.").features.counts


@pytest.mark.parametrize(
    "text",
    [
        "The agent distills each finished episode into reusable skills stored in its memory.",
        "We distill lessons from past failures and retrieve them when a similar task comes.",
        "智能体把历史轨迹提炼为可复用的经验，写入外部记忆。",
    ],
)
def test_distilling_experience_into_memory_is_not_model_distillation(text: str) -> None:
    counts = analyse(text).features.counts
    assert any(name.startswith("m:harness:") for name in counts), counts
    assert not any(name.startswith("m:sft_distillation:") for name in counts), counts


def test_reranking_retrieved_documents_is_retrieval_not_search() -> None:
    counts = analyse("The pipeline reranks the retrieved documents before the answer is generated.").features.counts
    assert any(name.startswith("m:harness:") for name in counts)
    assert not any(name.startswith("m:inference_time_search:") for name in counts)


@pytest.mark.parametrize(
    ("text", "mechanism"),
    [
        ("本项目开源了中文指令微调数据，并在其上训练对话模型。", Mechanism.SFT_DISTILLATION),
        ("一站式评测框架：内置多个基准，并给出排行榜。", Mechanism.ENVIRONMENT),
        ("一个智能体开发框架，帮助开发者搭建 Agent 应用。", Mechanism.HARNESS),
        ("本框架支持 PPO、GRPO 和 DPO 等训练方法，并提供分布式训练。", Mechanism.INFRASTRUCTURE),
        ("我们通过强化学习训练智能体，在多轮工具调用中根据任务奖励更新策略。", Mechanism.POLICY_GRADIENT),
    ],
)
def test_chinese_self_descriptions_have_cues_of_their_mechanism(text: str, mechanism: Mechanism) -> None:
    counts = analyse(text).features.counts
    assert counts.get(f"zh:{mechanism.value}", 0) >= 1, counts


def test_words_are_features_of_the_mechanism_and_of_every_fact() -> None:
    weights = current_weights()
    assert any(name.startswith(WORD_PREFIX) for name in weights.mechanism.features)
    for model in weights.facts.values():
        assert any(name.startswith(WORD_PREFIX) for name in model.features)


def test_a_facts_evidence_shows_the_words_that_weighed_towards_its_value() -> None:
    text = "We train the web agent with GRPO over multi-turn browser episodes, rewarded by task success."
    s = classify(text)
    words = set(analyse(text).features.words.values())
    shown = [span for span in s.evidence if span.decides == "fact:multi_step" and (span.start, span.end) in words]
    assert shown and all(span.contribution > 0 and text[span.start:span.end] == span.cue for span in shown)


def test_words_that_weighed_against_a_fact_found_false_carry_a_negative_contribution_as_cues_do() -> None:
    text = "We fine-tune the model on curated single-turn question answering data; there is no environment."
    s = classify(text)
    assert s.fact(Fact.INTERACTIVE_ENV).value is FactValue.FALSE
    words = set(analyse(text).features.words.values())
    shown = [span for span in s.evidence if span.decides == "fact:interactive_env" and (span.start, span.end) in words]
    assert shown and all(span.contribution < 0 for span in shown)
    assert "single-turn" in {span.cue for span in shown}


def test_word_features_count_english_words_and_chinese_character_pairs() -> None:
    text = "Benchmark the agents; the benchmark is 基准测试."
    features = analyse(text).features
    assert features.counts["w:benchmark"] == 2
    assert "w:the" not in features.counts
    assert {"w:基准", "w:准测", "w:测试"} <= set(features.counts)
    start, end = features.words["w:benchmark"]
    assert text[start:end] == "Benchmark"


def test_words_where_the_work_says_what_it_is_count_again_as_its_own() -> None:
    text = ("Existing agents rely on fine-tuning with curated data. "
            "We introduce WebArena-X, a benchmark of live web tasks. 本项目是一个评测基准。")
    features = analyse(text).features
    own = {name for name in features.counts if name.startswith(LEAD_PREFIX)}
    assert {"l:benchmark", "l:web", "l:tasks", "l:评测", "l:基准"} <= own
    # The problem statement's words are words, not the work's own.
    assert "w:fine-tuning" in features.counts and "l:fine-tuning" not in own and "l:curated" not in own
    start, end = features.words["l:benchmark"]
    assert text[start:end] == "benchmark"


def test_words_a_negation_holds_are_not_the_works_own_even_where_it_describes_itself() -> None:
    features = analyse("We propose an agent that does not require reinforcement learning.").features
    assert "l:agent" in features.counts
    assert not {"w:reinforcement", "l:reinforcement"} & set(features.counts)


def test_the_words_that_weighed_most_are_shown_as_evidence_with_their_contribution() -> None:
    text = "We introduce a benchmark of web tasks with automatic graders and evaluate twelve models on it."
    s = classify(text)
    assert s.mechanism is Mechanism.ENVIRONMENT
    words = [span for span in s.evidence if span.decides == "mechanism:environment" and span.contribution > 0
             and text[span.start:span.end].lower() == span.cue.lower() and " " not in span.cue]
    assert words
    assert all(text[span.start:span.end] == span.cue for span in words)


def test_the_installed_weights_file_names_its_version_and_what_it_was_trained_on() -> None:
    data = json.loads(DEFAULT_WEIGHTS.read_text(encoding="utf-8"))
    assert data["version"] >= 2
    assert data["trained_on"]["project"] >= 300
