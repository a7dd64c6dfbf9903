from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from wiki.graph.forms import MAX_WORKS
from wiki.models import Source
from pytest_django import Settings

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


def test_contrast_graph_has_both_works_and_the_contrast_between_them(seed: None, api: APIClient) -> None:
    data = api.get("/api/v1/graph/contrast/", {"works": "skillforge,starharness"}).json()

    ids = {node["id"] for node in data["nodes"]}
    assert {"source:skillforge", "source:starharness"} <= ids
    assert data["subjects"] == ["source:skillforge", "source:starharness"]
    assert any(e["type"] == "contrasts" and {e["source"], e["target"]} == {"source:skillforge", "source:starharness"} for e in data["edges"])
    assert all(e["source"] in ids and e["target"] in ids for e in data["edges"])


def test_contrast_graph_of_a_component(seed: None, api: APIClient) -> None:
    data = api.get("/api/v1/graph/contrast/", {"works": "shepherd:tree-grpo,skillforge"}).json()

    assert "component:shepherd/tree-grpo" in {node["id"] for node in data["nodes"]}


def test_contrast_graph_takes_as_many_works_as_the_browser_view_and_any_case(seed: None, api: APIClient) -> None:
    slugs = list(Source.objects.order_by("slug").values_list("slug", flat=True)[:MAX_WORKS])

    many = api.get("/api/v1/graph/contrast/", {"works": ",".join(slugs)})
    upper = api.get("/api/v1/graph/contrast/", {"works": "SkillForge,StarHarness"})

    assert many.status_code == 200 and len(many.json()["subjects"]) == MAX_WORKS == 12
    assert upper.status_code == 200 and upper.json()["subjects"] == ["source:skillforge", "source:starharness"]


@pytest.mark.parametrize("node", ["\t", "skillforge", "source:", "bogus:skillforge"])
def test_local_graph_refuses_a_node_that_is_not_kind_colon_key(seed: None, api: APIClient, node: str) -> None:
    response = api.get("/api/v1/graph/local/", {"node": node})

    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"node"}


@pytest.mark.parametrize(("works", "status"), [("skillforge", 400), ("a,b,c,d,e,f,g,h,i,j,k,l,m", 400), ("skillforge,no-such-work", 404), ("shepherd:nope,skillforge", 404)])
def test_contrast_graph_refuses_one_work_or_unknown_ones(seed: None, api: APIClient, works: str, status: int) -> None:
    response = api.get("/api/v1/graph/contrast/", {"works": works})

    assert response.status_code == status
    assert response.json()["code"] in ("invalid", "not_found")


def test_local_graph_follows_only_the_edge_types_asked(seed: None, api: APIClient) -> None:
    data = api.get("/api/v1/graph/local/", {"node": "source:skillforge", "edge_types": "contrasts"}).json()

    assert data["center"] == "source:skillforge"
    assert data["edges"] and {e["type"] for e in data["edges"]} <= {"contrasts", "component_of", "classified_as"}


def test_local_graph_of_an_unknown_node_is_404(seed: None, api: APIClient) -> None:
    assert api.get("/api/v1/graph/local/", {"node": "page:nowhere"}).status_code == 404


def test_classify_has_its_own_tighter_rate(settings: Settings, api: APIClient) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "100/minute", "classify": "2/minute"}}

    statuses = [api.post("/api/v1/classify/", {"text": "PPO 更新策略。"}, format="json").status_code for _ in range(3)]

    assert statuses == [200, 200, 429]
    assert api.get("/api/v1/pages/").status_code == 200  # other endpoints keep the general rate
