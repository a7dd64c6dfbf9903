import hashlib
import json
import subprocess
import sys
from pathlib import Path

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


def _heldout_files(tmp_path: Path, *, tamper: bool) -> tuple[Path, Path]:
    texts = [
        {"id": "a", "name": "WebRunner", "text": "We train a web agent with GRPO in a live browser environment."},
        {"id": "b", "name": "基准", "text": "本项目提供一个评测基准，只评测现有模型，不训练任何模型。"},
    ]
    blob = json.dumps(texts, ensure_ascii=False).encode("utf-8")
    texts_path = tmp_path / "texts.json"
    texts_path.write_bytes(blob + (b" " if tamper else b""))
    manifest = {
        "texts_sha256": hashlib.sha256(blob).hexdigest(),
        "items": [
            {"id": "a", "lang": "en", "mechanism": "policy_gradient", "verdict": "strict"},
            {"id": "b", "lang": "zh", "mechanism": "environment", "verdict": "not_strict"},
        ],
    }
    manifest_path = tmp_path / "manifest.json"
    manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
    return manifest_path, texts_path


def test_evaluate_reports_a_heldout_manifest_per_language(tmp_path: Path) -> None:
    manifest, texts = _heldout_files(tmp_path, tamper=False)
    result = _run("-m", "classifier.evaluate", str(manifest), "--texts", str(texts))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].endswith(": 2/2")
    assert [line.split()[0] for line in lines[2:4]] == ["en", "zh"]
    assert "items: 2" in result.stdout


def test_evaluate_refuses_heldout_texts_that_are_not_the_frozen_ones(tmp_path: Path) -> None:
    manifest, texts = _heldout_files(tmp_path, tamper=True)
    result = _run("-m", "classifier.evaluate", str(manifest), "--texts", str(texts))
    assert result.returncode == 2
    assert "sha256" in result.stderr


def test_evaluate_keeps_the_heldout_items_whose_own_checksum_matches(tmp_path: Path) -> None:
    kept = "We train a web agent with GRPO in a live browser environment."
    manifest = {
        "texts_sha256": "0" * 64,
        "items": [
            {"id": "a", "lang": "en", "mechanism": "policy_gradient", "verdict": "strict",
             "sha256": hashlib.sha256(kept.encode("utf-8")).hexdigest()},
            {"id": "b", "lang": "zh", "mechanism": "environment", "verdict": "not_strict",
             "sha256": hashlib.sha256("本项目提供一个评测基准。".encode()).hexdigest()},
            {"id": "c", "lang": "en", "mechanism": "harness", "verdict": "not_strict", "sha256": "1" * 64},
        ],
    }
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    texts = [{"id": "a", "text": kept}, {"id": "b", "text": "本项目提供一个评测基准，改过的文字。"}]
    (tmp_path / "texts.json").write_text(json.dumps(texts, ensure_ascii=False), encoding="utf-8")
    result = _run("-m", "classifier.evaluate", str(tmp_path / "manifest.json"), "--texts", str(tmp_path / "texts.json"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].endswith(": 1/3")
    assert "items: 1" in result.stdout


def test_evaluate_refuses_texts_none_of_which_match_their_checksums(tmp_path: Path) -> None:
    manifest = {"texts_sha256": "0" * 64,
                "items": [{"id": "a", "lang": "en", "mechanism": "harness", "verdict": "not_strict", "sha256": "1" * 64}]}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    (tmp_path / "texts.json").write_text(json.dumps([{"id": "a", "text": "x"}]), encoding="utf-8")
    result = _run("-m", "classifier.evaluate", str(tmp_path / "manifest.json"), "--texts", str(tmp_path / "texts.json"))
    assert result.returncode == 2
    assert "no text matches" in result.stderr


def test_evaluate_reports_the_clear_cut_works_of_a_second_annotation(tmp_path: Path) -> None:
    texts = [
        {"id": "a", "text": "We train a web agent with GRPO in a live browser environment."},
        {"id": "b", "text": "We introduce a benchmark of 300 web tasks that evaluates existing agents; no model is trained."},
        {"id": "c", "text": "We present a prompting scaffold that plans and reflects, with no parameter update."},
    ]
    blob = json.dumps(texts).encode("utf-8")
    (tmp_path / "texts.json").write_bytes(blob)
    manifest = {
        "texts_sha256": hashlib.sha256(blob).hexdigest(),
        "items": [
            {"id": "a", "lang": "en", "mechanism": "policy_gradient", "verdict": "strict",
             "second": {"mechanism": "policy_gradient", "verdict": "strict", "confident": True}},
            # The second annotator gave another mechanism, then the same one in doubt: neither is clear-cut.
            {"id": "b", "lang": "en", "mechanism": "environment", "verdict": "not_strict",
             "second": {"mechanism": "harness", "verdict": "not_strict", "confident": True}},
            {"id": "c", "lang": "en", "mechanism": "harness", "verdict": "not_strict",
             "second": {"mechanism": "harness", "verdict": "not_strict", "confident": False}},
        ],
    }
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    result = _run("-m", "classifier.evaluate", str(tmp_path / "manifest.json"), "--texts", str(tmp_path / "texts.json"))
    assert result.returncode == 0, result.stderr
    assert "second annotator agrees on 3 works: mechanism 0.667, strict-vs-not 1.000" in result.stdout
    clear = result.stdout.split("on the clear-cut works")[1].splitlines()
    assert clear[2].split()[:3] == ["en", "1", "1.000"]
