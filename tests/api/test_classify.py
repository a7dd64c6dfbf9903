"""POST /api/v1/classify/: the classifier's suggestion with its evidence, its refusals and its own rate."""

from __future__ import annotations

import pytest
from pytest_django import Settings
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_classify_returns_a_suggestion_with_evidence_spans(api: APIClient) -> None:
    text = "SkillForge 用 GRPO 在可执行环境中多轮更新策略，使用二值 outcome 奖励。"

    response = api.post("/api/v1/classify/", {"text": text}, format="json")

    assert response.status_code == 200
    data = response.json()
    assert data["mechanism"] == "policy_gradient"
    assert set(data["facts"]) == {"interactive_env", "multi_step", "verifiable_reward", "rl_update"}
    spans = [span for finding in data["facts"].values() for span in finding["evidence"]]
    assert spans and all(text[span["start"]:span["end"]] == span["cue"] for span in spans)


def test_classify_understands_negation(api: APIClient) -> None:
    response = api.post("/api/v1/classify/", {"text": "StarHarness 只演化外部 harness，没有用环境回报更新 agent policy。"}, format="json")

    assert response.json()["verdict"] == "not_strict"


@pytest.mark.parametrize(
    ("payload", "field"),
    [({}, "text"), ({"text": "   "}, "text"), ({"text": "x" * 20_001}, "text"), ({"text": "GRPO", "subject": "s" * 201}, "subject")],
)
def test_classify_refuses_missing_blank_or_long_text(api: APIClient, payload: dict[str, str], field: str) -> None:
    response = api.post("/api/v1/classify/", payload, format="json")

    assert response.status_code == 400
    assert set(response.json()["errors"]) == {field}


def test_classify_has_its_own_tighter_rate(settings: Settings, api: APIClient) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "100/minute", "classify": "2/minute"}}

    statuses = [api.post("/api/v1/classify/", {"text": "PPO 更新策略。"}, format="json").status_code for _ in range(3)]

    assert statuses == [200, 200, 429]
    assert api.get("/api/v1/pages/").status_code == 200  # other endpoints keep the general rate
