"""A search that finds nothing offers the works and pages named close to it: a misspelt short name or title, in
English or Chinese, leads to the work or page, in a fixed number of queries however many there are."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import make_page, make_source
from wiki.roles import Account
from wiki.search.query import search
from wiki.services.deletion import source_delete

pytestmark = pytest.mark.django_db


def _close(query: str, **filters: object) -> list[tuple[str, str]]:
    return [(c.kind, c.slug) for c in search(query, **filters).close]  # type: ignore[arg-type]


def test_a_misspelt_work_or_page_name_offers_the_work_or_page(client: Client) -> None:
    make_source(slug="skillforge", short_name="SkillForge", title="SkillForge: Learning Skills with GRPO")
    make_source(slug="tong-yi-shen-du-yan-jiu", short_name="通义深度研究", title="通义深度研究：面向长程任务的智能体")
    make_page(slug="credit-assignment", title="Credit Assignment")

    assert _close("skilforge") == [("source", "skillforge")]
    assert _close("SKILLFRGE") == [("source", "skillforge")]
    assert _close("通义深度研宄") == [("source", "tong-yi-shen-du-yan-jiu")]
    assert _close("credit asignment") == [("page", "credit-assignment")]

    content = client.get(reverse("wiki:search"), {"q": "skilforge"}).content.decode()
    assert 'Nothing matches “<span lang="en">skilforge</span>”.' in content
    assert "Sources and pages with a close name:" in content
    assert f'<a href="{reverse("wiki:source-detail", kwargs={"slug": "skillforge"})}" lang="en">SkillForge</a>' in content


def test_close_names_are_offered_in_chinese_too(client: Client) -> None:
    make_source(slug="tong-yi-shen-du-yan-jiu", short_name="通义深度研究", title="通义深度研究")

    content = client.get(reverse("wiki:search"), {"q": "通义深度研宄"}, headers={"accept-language": "zh-hans"}).content.decode()

    assert "名称相近的来源和页面：" in content
    assert 'lang="zh-Hans">通义深度研究</a>' in content


def test_only_names_a_few_edits_away_from_a_search_that_found_nothing_are_offered(editor: Account) -> None:
    work = make_source(slug="starharness", short_name="StarHarness", title="StarHarness")
    make_source(slug="shepherd", short_name="Shepherd", title="Shepherd")

    assert _close("starharnes") == []  # found, as a prefix of the name: nothing to offer
    assert search("starharnes").groups
    assert _close("stxrhxrnxss") == []  # three edits in eleven characters: too far
    assert _close("sh") == []  # too short to mean a name
    assert _close("shepherdd", kinds=["question"]) == []  # a filtered search offers no other kind
    source_delete(source=work, user=editor, reason="duplicate")
    assert _close("starharnss") == []  # a deleted work is not offered


def test_a_search_that_finds_nothing_runs_the_same_queries_however_many_works_and_pages(client: Client) -> None:
    def queries_for(query: str) -> int:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(reverse("wiki:search"), {"q": query})
        assert response.status_code == 200
        return len(queries)

    make_source(slug="skillforge", short_name="SkillForge", title="SkillForge")
    few = queries_for("skilforge")
    for n in range(40):
        make_source(slug=f"work-{n}", short_name=f"Work Number {n}", title=f"Work number {n}")
        make_page(slug=f"page-{n}", title=f"Page number {n}")
    many = queries_for("skilforgee")

    assert few == many
    assert "SkillForge</a>" in client.get(reverse("wiki:search"), {"q": "skilforgee"}).content.decode()


def test_a_mistyped_address_offers_the_pages_and_works_named_close_to_it(client: Client) -> None:
    make_source(slug="skillforge", short_name="SkillForge", title="SkillForge")
    make_page(slug="credit-assignment", title="Credit Assignment")
    make_page(slug="survey-notes", title="Agentic AI 03: Survey Notes")

    work = client.get(reverse("wiki:source-detail", kwargs={"slug": "skilforge"}))
    page = client.get(reverse("wiki:page-detail", kwargs={"slug": "credit-asignment"}))
    nothing = client.get(reverse("wiki:source-detail", kwargs={"slug": "qqqqzzzz"}))
    titled = client.get("/wiki/agentic ai 03: survey notes/")

    assert work.status_code == 404 and "No work is at “skilforge”." in work.content.decode()
    assert '<a href="/sources/skillforge/" lang="en">SkillForge</a>' in work.content.decode()
    assert page.status_code == 404 and '<a href="/wiki/credit-assignment/" lang="en">Credit Assignment</a>' in page.content.decode()
    assert nothing.status_code == 404 and "Sources and pages with a close name:" not in nothing.content.decode()
    assert titled.status_code == 302 and titled["Location"] == "/wiki/survey-notes/"
