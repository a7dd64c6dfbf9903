"""The API's search reads quotes, minus signs and OR as the search page does and says what it understood; the names
a search box offers are not thrown by them."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import make_page, make_source
from wiki.roles import Account
from wiki.services.glossary import glossary_term_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def pages(editor: Account) -> None:
    glossary_term_create(
        fields={"slug": "reward-hacking", "name_zh": "奖励黑客", "name_en": "reward hacking"}, user=editor
    )
    make_page(slug="hacking", title="Exploits", body="Reward hacking shows up when the reward is a proxy.")
    make_page(slug="hacking-zh", title="漏洞", body="策略会出现奖励黑客行为。")
    make_page(slug="shaping", title="Shaping", body="Reward shaping adds a bonus to the reward.")
    make_page(slug="in-order", title="Signals", body="Agents learn from proxy dense rewards.")
    make_page(slug="shuffled", title="Signals again", body="Dense proxy rewards mislead.")
    make_source(slug="skillforge", short_name="SkillForge", title="SkillForge")
    make_source(slug="multi-turn-agents", short_name="Multi-Turn Agents", title="Multi-Turn Agents")


def _search(api: APIClient, query: str) -> dict[str, Any]:
    response = api.get("/api/v1/search/", {"q": query, "kind": "page"})
    assert response.status_code == 200, response.content
    body: dict[str, Any] = response.json()
    return body


def _slugs(body: dict[str, Any]) -> set[str]:
    return {hit["url"].strip("/").split("/")[-1] for group in body["groups"] for hit in group["results"]}


@pytest.mark.usefixtures("pages")
def test_the_api_search_excludes_searches_phrases_and_ors_and_says_so(api: APIClient) -> None:
    excluding = _search(api, "reward -hacking")
    phrase = _search(api, '"proxy dense')
    either = _search(api, 'shaping OR "dense proxy"')

    assert _slugs(excluding) == {"shaping", "in-order", "shuffled"}
    assert excluding["terms"] == []
    assert excluding["understood"] == {"phrases": [], "either": [], "excluded": [{"text": "hacking", "phrase": False}]}
    assert _slugs(phrase) == {"in-order"}
    assert phrase["understood"]["phrases"] == [{"text": "proxy dense", "phrase": True}]
    assert _slugs(either) == {"shaping", "shuffled"}
    assert either["understood"]["either"] == [
        [{"text": "shaping", "phrase": False}, {"text": "dense proxy", "phrase": True}]
    ]
    assert _search(api, "reward hacking")["understood"] == {"phrases": [], "either": [], "excluded": []}
    assert _search(api, "-hacking")["groups"] == []


@pytest.mark.usefixtures("pages")
def test_the_names_offered_as_one_types_read_quotes_and_leave_exclusions_and_ors_alone(api: APIClient) -> None:
    def names(typed: str) -> list[str]:
        response = api.get("/api/v1/search/names/", {"q": typed})
        assert response.status_code == 200
        return [row["name"] for row in response.json()]

    assert names("skillf") == names('"skillf') == ["SkillForge"]
    assert names("multi-tu") == ["Multi-Turn Agents"]
    assert names("-skillf") == []
    assert names("skillf OR multi") == []
    assert names("-") == names('"') == []
