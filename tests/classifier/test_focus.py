from classifier import Mechanism, Verdict, classify
from classifier.text import focus

OPEN_SOURCE = (
    "开源工程已经把训练与 rollout 拆成不同层。prime-rl、RLinf 和 LoongSage 提供 policy update、reward、trajectory "
    "与分布式训练，属于 Agentic RL 基础设施；qwen3-runtime 只在工具调用之间维护 KV、采样和 pause/resume，是 rollout "
    "inference，不是完整 RL 算法；Cua 提供可供 RL 使用的环境，也不能因此归为 policy 训练框架。"
)
SHEPHERD = (
    "Shepherd 的 Tree-GRPO 是严格正例：共享前缀的 terminal rollout 产生 sibling outcome advantage，再用 clipped GRPO "
    "更新 Qwen/Nemotron worker policy；同一论文中的运行时 supervisor 与 CRO 没有参数更新，不属于 Agentic RL。"
)
SKILLFORGE = (
    "SkillForge 是严格 Agentic RL 的正例：GRPO 同时更新环境动作和 skill calling，二值 outcome rollout 还会持续提取、"
    "修订和去重 skill bank；它与 Recuris、StarHarness 形成“策略更新”与“外部 harness 演化”的对照。"
)
WEBARENA = (
    "WebArena 与 OSWorld 是两个重要反例：它们定义多步环境和终局 reward，但原论文只评测固定模型，没有根据回报更新 policy。"
)


def _focused(text: str, subject: str) -> str:
    return "".join(text[a:b] for a, b in focus(text, subject))


def test_without_subject_the_whole_text_is_read() -> None:
    assert focus("abc", None) == [(0, 3)]


def test_subject_named_in_a_list_gets_the_shared_predicate() -> None:
    assert "分布式训练" in _focused(OPEN_SOURCE, "RLinf")
    assert "qwen3-runtime" not in _focused(OPEN_SOURCE, "RLinf")


def test_each_work_in_a_multi_work_sentence_gets_its_own_clause() -> None:
    assert classify(OPEN_SOURCE, "prime-rl").mechanism is Mechanism.INFRASTRUCTURE
    assert classify(OPEN_SOURCE, "qwen3-runtime").mechanism is Mechanism.INFRASTRUCTURE
    assert classify(OPEN_SOURCE, "Cua").mechanism is Mechanism.ENVIRONMENT


def test_partial_subject_name_finds_the_clause_naming_most_of_it() -> None:
    focused = _focused(SHEPHERD, "Shepherd supervisor and CRO")
    assert "没有参数更新" in focused and "clipped GRPO" not in focused
    assert classify(SHEPHERD, "Shepherd supervisor and CRO").mechanism is Mechanism.HARNESS
    assert classify(SHEPHERD, "Shepherd Tree-GRPO").verdict is Verdict.STRICT


def test_contrast_sentence_maps_each_side_to_its_term() -> None:
    assert _focused(SKILLFORGE, "Recuris") == "外部 harness 演化"
    assert classify(SKILLFORGE, "StarHarness").mechanism is Mechanism.HARNESS
    assert classify(SKILLFORGE, "SkillForge").verdict is Verdict.STRICT


def test_pronoun_carries_the_subject_into_the_next_clause() -> None:
    assert "只评测固定模型" in _focused(WEBARENA, "OSWorld")
    assert classify(WEBARENA, "OSWorld").mechanism is Mechanism.ENVIRONMENT


def test_english_clause_after_whereas_belongs_to_the_other_work() -> None:
    text = "AlphaAgent trains the web agent with PPO on task-success rewards, whereas BetaKit only provides the benchmark."
    assert classify(text, "AlphaAgent").mechanism is Mechanism.POLICY_GRADIENT
    assert classify(text, "BetaKit").mechanism is Mechanism.ENVIRONMENT
