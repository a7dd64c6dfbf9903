"""Writes through the services (the forms' and the API's path) keep the search index current."""

from __future__ import annotations

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
