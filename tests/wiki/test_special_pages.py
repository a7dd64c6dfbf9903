"""The lists of pages beside the wanted pages: orphaned pages (no other page links to them), dead-end pages (they link
to no other page) and pages without citations, each paginated in a fixed number of queries, deleted pages never
listed, and all of them reached from the list of pages and from one another."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from tests.factories import cite, make_page, make_source
from wiki.caching import versions
from wiki.models import Page
from wiki.services.deletion import page_delete
from wiki.services.glossary import glossary_term_create
from wiki.services.page_moves import page_move
from wiki.services.pages import page_save_revision

pytestmark = pytest.mark.django_db

LISTS = ("wanted-pages", "orphaned-pages", "dead-end-pages", "pages-without-citations")


def _listed(client: Client, name: str, **query: str) -> list[str]:
    html = client.get(reverse(f"wiki:{name}"), query).content.decode()
    listing = html[html.index('<ul class="page-list">') :]
    listing = listing[: listing.index("</ul>")]
    return re.findall(r'<a href="/wiki/([^/"]+)/" lang="[^"]+" class="page-link">', listing)


def test_orphaned_pages_are_those_no_other_live_page_links_to(client: Client) -> None:
    make_page(slug="hub", title="Hub", body="[[Linked]], [[Renamed later]] and [[Hub]] itself.")
    make_page(slug="linked", title="Linked")
    moved = make_page(slug="renamed-later", title="Renamed later")
    # the hub's link names its former address, which leads to it
    page_move(page=moved, slug="renamed", title="Renamed", user=None)
    make_page(slug="self-linking", title="Self-linking", body="Only [[Self-linking]] links here.")
    make_page(slug="lonely", title="Lonely")
    make_page(slug="linked-by-deleted", title="Linked by a deleted page")
    page_delete(page=make_page(slug="spam", title="Spam", body="[[linked-by-deleted]]"), user=None, reason="Spam")
    page_delete(page=make_page(slug="deleted-lonely", title="Deleted lonely"), user=None, reason="Spam")

    assert _listed(client, "orphaned-pages") == ["hub", "linked-by-deleted", "lonely", "self-linking"]
    assert [p.slug for p in Page.objects.orphaned()] == ["hub", "linked-by-deleted", "lonely", "self-linking"]


def test_dead_end_pages_are_those_that_link_to_no_other_live_page(client: Client) -> None:
    glossary_term_create(fields={"slug": "loop-credit", "name_zh": "循环信用", "name_en": "Loop Credit"}, user=None)
    make_page(slug="target", title="Target")
    make_page(slug="links-a-page", title="Links a page", body="[[Target]]")
    moved = make_page(slug="old-address", title="Old address")
    page_move(page=moved, slug="new-address", user=None)
    make_page(slug="links-a-former-address", title="Links a former address", body="[[old-address]]")
    make_page(slug="links-a-wanted-page", title="Links a wanted page", body="[[Not written yet]]")
    make_page(slug="links-a-term", title="Links a term", body="[[Loop Credit]]")
    make_page(slug="links-itself", title="Links itself", body="[[Links itself]]")
    gone = make_page(slug="gone", title="Gone")
    make_page(slug="links-a-deleted-page", title="Links a deleted page", body="[[Gone]]")
    page_delete(page=gone, user=None, reason="Spam")
    page_delete(page=make_page(slug="deleted-dead-end", title="Deleted dead end"), user=None, reason="Spam")

    assert _listed(client, "dead-end-pages") == [
        "links-a-deleted-page",
        "links-a-term",
        "links-a-wanted-page",
        "links-itself",
        "new-address",
        "target",
    ]


def test_pages_without_citations_are_those_none_of_whose_claims_cite_a_work(client: Client) -> None:
    work = make_source(short_name="ShapeRL", title="ShapeRL: Shaped Rewards")
    make_page(slug="cited", title="Cited", body=f"- 奖励塑形加快学习。{cite(work)}\n- 另一句。\n")
    make_page(slug="claims-uncited", title="Claims uncited", body="## 关键要点\n\n- 一句。\n- 两句。\n")
    make_page(slug="no-claims", title="No claims", body="")
    make_page(
        slug="cited-once", title="Cited once", body=f"## 关键要点\n\n- 引用的一句。{cite(work)}\n- 留下的一句。\n"
    )
    # its only cited sentence taken out of the text: its claim is an orphan, which cites nothing on the page
    page_save_revision(slug="cited-once", title="Cited once", body="## 关键要点\n\n- 留下的一句。\n", summary="")
    page_delete(page=make_page(slug="deleted-uncited", title="Deleted uncited"), user=None, reason="Spam")

    html = client.get(reverse("wiki:pages-without-citations")).content.decode()

    assert _listed(client, "pages-without-citations") == ["cited-once", "claims-uncited", "no-claims"]
    assert "2 claims, none citing a work" in html and "1 claim, citing no work" in html and "no claims" in html


@pytest.mark.parametrize("name", LISTS[1:])
def test_each_list_is_paginated_in_two_queries_whatever_the_number_of_pages(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries, name: str
) -> None:
    for n in range(3):
        make_page(slug=f"page-{n:03}", title=f"Page {n:03}", body="- 一句。\n")
    versions.bump()
    with django_assert_num_queries(2):
        assert len(_listed(client, name)) == 3
    for n in range(3, 130):
        make_page(slug=f"page-{n:03}", title=f"Page {n:03}", body="- 一句。\n")
    versions.bump()

    with django_assert_num_queries(2):
        first = _listed(client, name)
    versions.bump()
    with django_assert_num_queries(2):
        second = _listed(client, name, p="2")

    assert len(first) == 100 and len(second) == 30 and first[0] == "page-000" and second[-1] == "page-129"
    assert "Page 2 of 2" in client.get(reverse(f"wiki:{name}"), {"p": "2"}).content.decode()


@pytest.mark.parametrize("where", ["page-list", *LISTS])
def test_every_list_of_pages_is_reached_from_the_others(client: Client, where: str) -> None:
    html = client.get(reverse(f"wiki:{where}")).content.decode()

    nav = html[html.index('<nav class="page-lists"') :]
    nav = nav[: nav.index("</nav>")]
    for name in ("page-list", *LISTS):
        assert f'href="{reverse(f"wiki:{name}")}"' in nav
    assert f'href="{reverse(f"wiki:{where}")}" aria-current="page"' in nav


def test_the_lists_read_in_chinese(client: Client) -> None:
    make_page(slug="lonely", title="孤单的页面")

    html = client.get(reverse("wiki:orphaned-pages"), HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()

    assert '<h1 class="page-title">孤立页面</h1>' in html and ">断链页面</a>" in html and ">无引用页面</a>" in html
    assert '<a href="/wiki/lonely/" lang="zh-Hans" class="page-link">孤单的页面</a>' in html


def test_the_new_lists_take_addresses_no_page_can_have() -> None:
    from wiki.models.pages import RESERVED_SLUGS

    assert {"orphaned", "dead-ends", "uncited"} <= set(RESERVED_SLUGS)
