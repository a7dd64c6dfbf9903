"""A search that names a work or page exactly (case and spacing aside) leads straight to it, above the results, in
the browser and the API; filtered searches and later pages of results do not repeat it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_page, make_source
from wiki.roles import Account
from wiki.search.query import search
from wiki.services.deletion import source_delete

pytestmark = pytest.mark.django_db


def _exact(query: str, **filters: object) -> list[tuple[str, str]]:
    return [(e.kind, e.slug) for e in search(query, **filters).exact]  # type: ignore[arg-type]


def test_a_work_or_page_named_as_the_search_is_one_step_away(client: Client, editor: Account) -> None:
    make_source(slug="skillforge", short_name="SkillForge", title="SkillForge: Learning Skills with GRPO")
    make_source(slug="skillforge-two", short_name="SkillForge 2", title="SkillForge 2")
    make_source(slug="tong-yi-shen-du-yan-jiu", short_name="通义深度研究", title="通义深度研究：面向长程任务的智能体")
    make_page(slug="skillforge-notes", title="skillforge")
    make_page(slug="credit-assignment", title="Credit Assignment")
    gone = make_source(slug="deleted-forge", short_name="Deleted Forge")
    source_delete(source=gone, reason="duplicate", user=editor)

    assert _exact("SKILLFORGE") == [("source", "skillforge"), ("page", "skillforge-notes")]
    assert _exact("  credit   assignment ") == [("page", "credit-assignment")]
    assert _exact("通义深度研究") == [("source", "tong-yi-shen-du-yan-jiu")]
    assert _exact("skillforg") == [] and _exact("Deleted Forge") == []
    assert _exact("SkillForge", kinds=["source"]) == [] and _exact("SkillForge", offset=10) == []

    html = client.get(reverse("wiki:search"), {"q": "skillforge"}).content.decode()
    assert ('<p class="search-exact">Go to: <a href="/sources/skillforge/" lang="en">SkillForge</a>'
            '<span class="muted"> (Source)</span>; <a href="/wiki/skillforge-notes/" lang="en">skillforge</a>') in html
    # Chinese text takes full-width brackets.
    zh = client.get(reverse("wiki:search"), {"q": "skillforge"}, headers={"accept-language": "zh-CN"}).content.decode()
    assert '<span class="muted">（来源）</span>' in zh and '<span class="muted">（页面）</span>' in zh
    assert "search-exact" not in client.get(reverse("wiki:search"), {"q": "skillforge", "kind": "source"}).content.decode()
    api = client.get("/api/v1/search/", {"q": "Credit Assignment"}).json()
    assert api["exact"] == [{"kind": "page", "name": "Credit Assignment", "slug": "credit-assignment",
                             "url": "/wiki/credit-assignment/"}]
    assert client.get("/api/v1/search/", {"q": "Credit Assignment", "page": "2"}).json()["exact"] == []


def test_pages_titled_alike_are_offered_each_with_its_address(client: Client) -> None:
    make_page(slug="agentic-rl", title="Agentic RL")
    make_page(slug="agentic-rl-draft", title="Agentic RL")
    make_source(slug="solo", short_name="Solo")

    html = client.get(reverse("wiki:search"), {"q": "agentic rl"}).content.decode()
    alone = client.get(reverse("wiki:search"), {"q": "solo"}).content.decode()

    assert '<span class="muted"> (Page · <span lang="en">agentic-rl</span>)</span>' in html
    assert '<span class="muted"> (Page · <span lang="en">agentic-rl-draft</span>)</span>' in html
    assert '<span class="muted"> (Source)</span>' in alone
