"""Names as a search box offers them: works and pages whose name starts with what was typed, then those with a word
starting with it, works first; nothing for one letter (one Chinese character is a word); bad parameters a 400."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import ComponentFactory, make_page, make_source
from wiki.roles import Account
from wiki.services.deletion import source_delete

pytestmark = pytest.mark.django_db


def _names(api: APIClient, typed: str, **params: str) -> list[tuple[str, str]]:
    response = api.get("/api/v1/search/names/", {"q": typed, **params})
    assert response.status_code == 200
    return [(row["kind"], row["name"]) for row in response.json()]


def test_glossary_terms_are_offered_after_works_and_pages_by_the_name_that_matched(api: APIClient, seed: None) -> None:
    offered = api.get("/api/v1/search/names/", {"q": "策略梯"}).json()
    by_english = api.get("/api/v1/search/names/", {"q": "policy grad"}).json()

    assert {"kind": "term", "name": "策略梯度", "slug": "policy-gradient", "url": "/glossary/policy-gradient/"} in offered
    assert [row["name"] for row in by_english if row["kind"] == "term"] == ["policy gradient"]


def test_names_starting_with_what_was_typed_come_first_then_words_starting_with_it(api: APIClient, editor: Account) -> None:
    make_source(slug="skillforge", short_name="SkillForge", title="SkillForge")
    make_source(slug="prime-skill", short_name="Prime Skill", title="Prime Skill")
    make_source(slug="tong-yi-shen-du-yan-jiu", short_name="通义深度研究", title="通义深度研究")
    make_page(slug="skill-notes", title="Skill notes")
    gone = make_source(slug="skillgone", short_name="SkillGone")
    source_delete(source=gone, user=editor, reason="duplicate")

    assert _names(api, "SKIL") == [("source", "SkillForge"), ("page", "Skill notes"), ("source", "Prime Skill")]
    assert _names(api, "skil", limit="1") == [("source", "SkillForge")]
    assert _names(api, "通义") == [("source", "通义深度研究")]
    assert _names(api, "s") == [] and _names(api, "") == [] and _names(api, "zzzz") == []
    row = api.get("/api/v1/search/names/", {"q": "skillf"}).json()[0]
    assert row == {"kind": "source", "name": "SkillForge", "slug": "skillforge", "url": "/sources/skillforge/"}
    refused = api.get("/api/v1/search/names/", {"q": "skil", "limit": "500"})
    assert refused.status_code == 400 and "limit" in refused.json()["errors"]


def test_one_chinese_character_offers_the_names_it_starts_where_one_letter_offers_none(api: APIClient) -> None:
    # a Chinese character is a word already: a reader typing 强 is on the way to 强化学习 as one typing "re" is
    make_source(slug="qiang-hua-gong-ju", short_name="强化工具", title="强化工具")
    make_page(slug="qiang-notes", title="强 notes")

    assert _names(api, "强") == [("source", "强化工具"), ("page", "强 notes")]
    assert _names(api, "強") == _names(api, "强")  # as written in Traditional characters
    assert _names(api, "s") == [] and _names(api, "7") == []


def test_a_works_components_are_offered_by_their_name_or_their_works_and_lead_to_their_classification(
    api: APIClient, editor: Account
) -> None:
    shepherd = make_source(slug="shepherd", short_name="Shepherd", title="Shepherd: Programmable Meta-Agents")
    ComponentFactory.create(source=shepherd, slug="tree-grpo", name="Tree-GRPO")
    ComponentFactory.create(source=shepherd, slug="supervisor-cro", name="supervisor and CRO")
    make_source(slug="treeline", short_name="Treeline", title="Treeline")
    make_page(slug="tree-search", title="Tree search")
    gone = make_source(slug="gone", short_name="Gone")
    ComponentFactory.create(source=gone, slug="tree-grpo", name="Tree-GRPO")
    source_delete(source=gone, user=editor, reason="duplicate")

    # works, then components, then pages; the deleted work's component not at all
    assert _names(api, "tree") == [("source", "Treeline"), ("component", "Shepherd Tree-GRPO"), ("page", "Tree search")]
    assert _names(api, "shepherd t") == [("component", "Shepherd Tree-GRPO")]
    assert _names(api, "shep") == [("source", "Shepherd"), ("component", "Shepherd Tree-GRPO"),
                                   ("component", "Shepherd supervisor and CRO")]
    assert _names(api, "cro") == [("component", "Shepherd supervisor and CRO")]  # a word of its name
    row = api.get("/api/v1/search/names/", {"q": "tree-g"}).json()
    assert row == [{"kind": "component", "name": "Shepherd Tree-GRPO", "slug": "shepherd",
                    "url": "/sources/shepherd/#component-tree-grpo"}]
