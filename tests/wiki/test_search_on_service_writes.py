"""Writes through the services (the forms' and the API's path) keep the search index current."""

from __future__ import annotations

import pytest

from tests.factories import ClassificationFactory, SourceFactory
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
