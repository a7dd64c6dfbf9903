import json
import subprocess
import sys

from .helpers import DEV_SET


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=60, check=False)


def test_cli_json_prints_the_suggestion() -> None:
    result = _run("-m", "classifier", "用 GRPO 在终端环境中更新 agent policy，奖励来自单元测试。", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["mechanism"] == "policy_gradient"
    assert data["algorithm"] == "GRPO"
    assert data["evidence"]


def test_cli_focuses_on_the_subject() -> None:
    text = "SkillForge 用 GRPO 更新策略；它与 Recuris 形成“策略更新”与“外部 harness 演化”的对照。"
    result = _run("-m", "classifier", text, "--subject", "Recuris", "--json")
    assert json.loads(result.stdout)["mechanism"] == "harness"


def test_cli_text_output_highlights_the_cues() -> None:
    result = _run("-m", "classifier", "We train the agent with PPO in a browser environment.")
    assert result.returncode == 0
    assert "[[PPO]]" in result.stdout


def test_evaluate_prints_accuracies_and_misses() -> None:
    result = _run("-m", "classifier.evaluate", str(DEV_SET))
    assert result.returncode == 0, result.stderr
    assert "mechanism accuracy: " in result.stdout
    assert "verdict accuracy" in result.stdout
    assert "exact verdict accuracy" in result.stdout
    assert "misses:" in result.stdout
