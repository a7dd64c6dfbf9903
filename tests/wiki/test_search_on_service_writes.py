"""Writes through the services (the forms' and the API's path) keep the search index current."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.factories import ClassificationFactory, ComponentFactory, SourceFactory
from wiki.references.draft import SourceDraft
from wiki.search.query import search
from wiki.services.classifications import classification_save
from wiki.services.questions import question_create
from wiki.services.sources import source_create


def _titles(query: str, *, mechanism: str = "", verdict: str = "") -> set[str]:
    return {hit.title for group in search(query, mechanism=mechanism, verdict=verdict).groups for hit in group.hits}


@pytest.mark.django_db
def test_a_new_source_is_found_at_once() -> None:
    source_create(draft=SourceDraft(title="Quokka: Marsupial Agents for Tool Use", short_name="Quokka"))
    assert any("Quokka" in title for title in _titles("quokka"))


@pytest.mark.django_db
def test_a_new_question_is_found_at_once() -> None:
    question_create(fields={"title": "袋鼠智能体是否需要过程奖励", "text": "待核实。"})
    assert "袋鼠智能体是否需要过程奖励" in _titles("袋鼠")


@pytest.mark.django_db
def test_a_changed_verdict_changes_the_verdict_filter() -> None:
    work = SourceFactory.create(slug="shopworld", short_name="ShopWorld", title="ShopWorld: A Web Environment for Agents")
    classification = ClassificationFactory.create(source=work, mechanism="environment", verdict="not_strict", rl_update=False)
    assert not any("ShopWorld" in t for t in _titles("shopworld", verdict="strict"))
    classification_save(
        source=work,
        classification=classification,
        fields={"mechanism": "policy_gradient", "verdict": "strict", "rl_update": True, "rationale": "test"},
    )
    assert any("ShopWorld" in t for t in _titles("shopworld", verdict="strict"))


@pytest.mark.django_db
def test_a_work_classified_per_component_is_found_by_each_components_mechanism_and_verdict(client: Client) -> None:
    work = SourceFactory.create(slug="tandem", short_name="Tandem", title="Tandem: A Trainer and a Scaffold")
    trainer = ComponentFactory.create(source=work, name="Tandem Trainer")
    scaffold = ComponentFactory.create(source=work, name="Tandem Scaffold")
    ClassificationFactory.create(source=work, component=trainer, mechanism="policy_gradient", verdict="strict")
    ClassificationFactory.create(source=work, component=scaffold, mechanism="harness", verdict="not_strict",
                                 interactive_env=True, multi_step=True, verifiable_reward=False, rl_update=False)

    assert any("Tandem" in t for t in _titles("tandem", mechanism="policy_gradient"))
    assert any("Tandem" in t for t in _titles("tandem", mechanism="harness"))
    assert any("Tandem" in t for t in _titles("tandem", mechanism="harness", verdict="not_strict"))
    # both filters hold for one classification, as in the sources list: no component is a strict harness
    assert not any("Tandem" in t for t in _titles("tandem", mechanism="harness", verdict="strict"))
    [hit] = [h for g in search("tandem", kinds=["source"]).groups for h in g.hits]
    assert (hit.mechanisms, hit.verdicts) == (("harness", "policy_gradient"), ("not_strict", "strict"))
    assert hit.verdict_badges == ["not_strict", "strict"]

    page = client.get("/search/", {"q": "tandem", "kind": "source"}).content.decode()
    assert 'class="badge verdict-not_strict"' in page and 'class="badge verdict-strict"' in page
    answer = client.get("/api/v1/search/", {"q": "tandem", "kind": "source"}).json()
    [api_hit] = answer["groups"][0]["results"]
    assert api_hit["mechanisms"] == ["harness", "policy_gradient"] and api_hit["verdicts"] == ["not_strict", "strict"]
    assert (api_hit["mechanism"], api_hit["verdict"]) == ("harness", "not_strict")


@pytest.mark.django_db
def test_a_works_verdicts_that_differ_by_component_are_said_apart_in_the_results(client: Client) -> None:
    work = SourceFactory.create(slug="tandem", short_name="Tandem", title="Tandem: A Trainer and a Scaffold")
    for name, mechanism, verdict in (("Trainer", "policy_gradient", "strict"), ("Scaffold", "harness", "not_strict")):
        ClassificationFactory.create(source=work, component=ComponentFactory.create(source=work, name=name),
                                     mechanism=mechanism, verdict=verdict)
    single = SourceFactory.create(slug="tandem-solo", short_name="Tandem Solo", title="Tandem Solo")
    ClassificationFactory.create(source=single, mechanism="policy_gradient", verdict="strict")

    page = client.get("/search/", {"q": "tandem", "kind": "source"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    hits = dict(re.findall(r'<a class="hit-title" href="/sources/([^/]+)/"[^>]*>.*?</a>(.*?)</li>', page, re.DOTALL))
    # read as words, not "Not strictStrict Agentic RL", and said to be the components'
    assert re.sub(r"<[^>]+>", "", hits["tandem"]).split() == "Classified per component: Not strict Strict Agentic RL".split()
    assert "per component" not in hits["tandem-solo"] and "Strict Agentic RL" in hits["tandem-solo"]
    chinese = client.get("/search/", {"q": "tandem", "kind": "source"}, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert '<span class="muted">按组件分类：</span>' in chinese
