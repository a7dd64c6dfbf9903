"""A page's information ("Page information"): its names, its history in figures, its watchers (a small number not
told), its links, claims, works cited and questions, in a fixed number of queries whatever the page's size."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries
from rest_framework.test import APIClient

from tests.factories import cite, make_editor, make_page, make_question, make_reader, make_source
from wiki.models import Claim, Page
from wiki.reports.page_info import page_info
from wiki.services.claims import claim_set_status
from wiki.services.deletion import page_delete
from wiki.services.glossary import glossary_term_create
from wiki.services.page_moves import page_move
from wiki.services.pages import page_save_revision
from wiki.services.watches import watch_add

pytestmark = pytest.mark.django_db


def _info_url(slug: str) -> str:
    return reverse("wiki:page-info", kwargs={"slug": slug})


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _reward_page() -> Page:
    """A page moved and retitled once, edited by two editors after an import, linked to by two pages (one through
    its former address) and by a deleted one, linking to a page, a wanted page and a glossary term, with claims of
    each status, one claim out of its text, two works cited and three questions (one answered)."""
    first, second = make_editor("first-editor"), make_editor("second-editor")
    works = (
        make_source(short_name="ShapeRL", title="ShapeRL: Shaped Rewards"),
        make_source(short_name="DenseR", title="DenseR"),
    )
    glossary_term_create(fields={"slug": "loop-credit", "name_zh": "循环信用", "name_en": "Loop Credit"}, user=None)
    make_page(slug="policy-notes", title="Policy notes")
    body = (
        "奖励塑形见 [[Policy notes]]、[[Sparse rewards]] 与 [[Loop Credit]]。\n\n## 关键要点\n\n"
        f"- 奖励塑形加快学习。{cite(works[0], locator='§2')}\n"
        f"- 稠密奖励可能被投机利用。{cite(*works)}\n"
        "- 尚无引用的一句。\n"
        "- 将被删去的一句。\n"
    )
    page_save_revision(slug="reward-shaping", title="Reward shaping", body=body, summary="")
    page_save_revision(
        slug="reward-shaping", title="Reward shaping", body=body + "- 再加一句。\n", summary="", user=first
    )
    page = Page.objects.get(slug="reward-shaping")
    page = page_move(page=page, slug="shaping", title="奖励塑形", user=second, reason="Chinese title")
    final = page.body.replace("- 将被删去的一句。\n", "")
    page_save_revision(slug="shaping", title="奖励塑形", body=final, summary="", user=second)
    claims = {claim.text[:4]: claim for claim in Claim.objects.current().filter(page=page)}
    claim_set_status(claim=claims["奖励塑形"], status="verified", user=first)
    claim_set_status(claim=claims["稠密奖励"], status="disputed", user=first)
    make_page(slug="linking-by-address", title="Linking by address", body="See [[shaping]].")
    make_page(slug="linking-by-former", title="Linking by former address", body="See [[reward-shaping]].")
    make_page(slug="linking-twice", title="Linking twice", body="See [[shaping]] and [[Reward shaping]] again.")
    deleted = make_page(slug="deleted-linker", title="Deleted linker", body="See [[shaping]].")
    page_delete(page=deleted, user=None, reason="Spam")
    make_question(page=page, title="Is shaping potential-based?")
    make_question(page=page, title="Which tasks?", status="investigating")
    make_question(page=page, title="Dropped one", status="dropped")
    return Page.objects.get(slug="shaping")


def test_the_information_tells_the_pages_names_history_links_claims_and_questions() -> None:
    page = _reward_page()

    info = page_info(page.slug)

    assert info is not None
    assert [former.slug for former in info.former_addresses] == ["reward-shaping"]
    assert info.former_titles == ("Reward shaping",)
    assert (info.revision, info.revision_count, info.author_count, info.unattributed_revisions) == (4, 4, 2, 1)
    assert info.creator is None and info.last_editor == "second-editor"
    assert info.size == len(page.body) and info.content_language == "zh-Hans"
    # the deleted page's link counts for nothing, a page linking twice once
    assert info.backlink_count == 3
    assert (info.page_link_count, info.wanted_link_count) == (1, 1)
    assert (info.claims.verified, info.claims.needs_verification, info.claims.disputed, info.claims.orphaned) == (
        1,
        2,
        1,
        1,
    )
    assert info.cited_work_count == 2
    assert (info.unresolved_questions, info.question_count) == (2, 3)


def test_the_information_page_shows_them_with_the_language_of_each_name(client: Client) -> None:
    page = _reward_page()

    response = client.get(_info_url(page.slug))

    assert response.status_code == 200
    html = response.content.decode()
    text = _text(html)
    assert '<dd lang="zh-Hans">奖励塑形</dd>' in html
    assert '<span lang="en">Reward shaping</span>' in html
    assert 'href="/wiki/reward-shaping/"' in html
    assert "http://testserver/wiki/shaping/" in html
    assert "Page creator import" in text and "Latest editor second-editor" in text
    assert "Revisions 4" in text and "Distinct authors 2 (and 1 revision imported without an account)" in text
    assert "Pages linking here 3" in text and "Pages it links to 1" in text and "Links to wanted pages 1" in text
    assert "Claims in the text 4 (1 verified, 2 needing verification, 1 disputed)" in text
    assert "and 1 claim out of the text, awaiting a decision" in text
    assert "Works cited 2" in text and "Open questions 2 (3 in all" in text
    assert f'href="{reverse("wiki:question-list")}?page_slug=shaping"' in html


def test_a_page_links_to_its_information_and_its_citation(client: Client) -> None:
    make_page(slug="reward-shaping", title="Reward shaping")

    html = client.get(reverse("wiki:page-detail", kwargs={"slug": "reward-shaping"})).content.decode()
    chinese = client.get(reverse("wiki:page-detail", kwargs={"slug": "reward-shaping"}), HTTP_ACCEPT_LANGUAGE="zh-Hans")

    meta = html[html.index('<div class="page-meta">') :]
    meta = meta[: meta.index("</div>")]
    assert f'<a href="{_info_url("reward-shaping")}">Page information</a>' in meta
    assert f'<a href="{reverse("wiki:page-cite", kwargs={"slug": "reward-shaping"})}">Cite this page</a>' in meta
    assert ">页面信息</a>" in chinese.content.decode() and ">引用本页</a>" in chinese.content.decode()


@pytest.mark.parametrize(("watchers", "shown"), [(0, "Fewer than 3"), (2, "Fewer than 3"), (3, "3"), (4, "4")])
def test_the_number_of_watchers_is_told_from_three_on(client: Client, watchers: int, shown: str) -> None:
    page = make_page(slug="reward-shaping", title="Reward shaping")
    for n in range(watchers):
        watch_add(user=make_reader(f"watcher-{n}"), target=page)

    text = _text(client.get(_info_url(page.slug)).content.decode())
    data = APIClient().get(f"/api/v1/pages/{page.slug}/info/").json()

    assert f"Watchers {shown}" in text
    assert ("so that nobody can tell who watches a page" in text) == (watchers < 3)
    assert data["watchers"] == (watchers if watchers >= 3 else None) and data["watchers_shown_from"] == 3


def test_a_watch_added_after_a_read_is_counted_at_the_next(client: Client) -> None:
    page = make_page(slug="reward-shaping", title="Reward shaping")
    for n in range(3):
        watch_add(user=make_reader(f"watcher-{n}"), target=page)
    assert "Watchers 3" in _text(client.get(_info_url(page.slug)).content.decode())

    watch_add(user=make_reader("one-more"), target=page)

    assert "Watchers 4" in _text(client.get(_info_url(page.slug)).content.decode())


def test_a_former_address_leads_to_the_information_where_the_page_is_now(client: Client) -> None:
    page = make_page(slug="reward-shaping", title="Reward shaping")
    page_move(page=page, slug="shaping", user=None)

    response = client.get(_info_url("reward-shaping"))

    assert response.status_code == 302 and response["Location"] == _info_url("shaping")


def test_a_deleted_page_has_no_information_but_says_it_was_deleted(client: Client) -> None:
    page = make_page(slug="reward-shaping", title="Reward shaping")
    page_delete(page=page, user=None, reason="Spam")

    assert client.get(_info_url("reward-shaping")).status_code == 410
    assert client.get(_info_url("no-such-page")).status_code == 404
    assert APIClient().get("/api/v1/pages/reward-shaping/info/").status_code == 410


def _grow(page: Page) -> None:
    """Many more revisions, authors, watchers, links both ways, claims, citations, questions and former names."""
    body = page.body
    for n in range(12):
        author = make_editor(f"grower-{n}")
        body += f"\n- 第 {n} 条新论断。{cite(make_source(short_name=f'Grown {n}'))} [[Grown target {n}]]\n"
        page_save_revision(slug=page.slug, title=page.title, body=body, summary="", user=author)
        watch_add(user=author, target=page)
        make_page(slug=f"grown-linker-{n}", title=f"Grown linker {n}", body=f"[[{page.slug}]]")
        make_question(page=page, title=f"Grown question {n}")
    for n in range(3):
        page = page_move(page=page, slug=f"{page.slug}-{n}", title=f"{page.title} {n}", user=None)


def test_the_information_costs_the_same_queries_whatever_the_pages_size(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    page = _reward_page()
    with django_assert_num_queries(3):
        small = client.get(_info_url(page.slug))
    _grow(page)
    grown = Page.objects.get(redirects__slug="shaping")
    assert grown.revisions.count() > 15 and grown.redirects.count() > 4

    with django_assert_num_queries(3):
        large = client.get(_info_url(grown.slug))

    assert small.status_code == large.status_code == 200
    # the two editors of the page watch it since their edits, as do the twelve growers
    assert "Watchers 14" in _text(large.content.decode())


def test_the_api_answers_the_same_information(client: Client) -> None:
    page = _reward_page()

    data = APIClient().get(f"/api/v1/pages/{page.slug}/info/").json()

    assert data["slug"] == "shaping" and data["title"] == "奖励塑形" and data["html_url"] == "http://testserver/wiki/shaping/"
    assert data["former_slugs"] == ["reward-shaping"] and data["former_titles"] == ["Reward shaping"]
    assert (data["revisions"], data["authors"], data["created_by"], data["last_edited_by"]) == (
        4,
        2,
        None,
        "second-editor",
    )
    assert (data["backlinks"], data["links_to_pages"], data["links_to_wanted_pages"]) == (3, 1, 1)
    assert data["claims"] == {"verified": 1, "needs_verification": 2, "disputed": 1, "orphaned": 1}
    assert (data["works_cited"], data["unresolved_questions"], data["questions"]) == (2, 2, 3)
    assert data["content_language"] == "zh-Hans" and data["size"] == len(page.body)
    moved = APIClient().get("/api/v1/pages/reward-shaping/info/")
    assert moved.status_code == 301 and moved["Location"].endswith("/api/v1/pages/shaping/info/")
    assert APIClient().get(f"/api/v1/pages/{page.slug}/info/", {"watchers": "all"}).status_code == 400
