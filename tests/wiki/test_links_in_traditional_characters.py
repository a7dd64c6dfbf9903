"""A wiki link written in Traditional characters leads where the same link in Simplified ones does, as search reads
them alike: to the page of that title or address, to the glossary term of that name, or to the same wanted page."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import make_page
from wiki.markdown.wikilinks import link_key
from wiki.models import GlossaryTerm, Page, PageRedirect, WikiLink
from wiki.services.glossary import glossary_term_create
from wiki.services.pages import link_targets, page_preview, page_save

pytestmark = pytest.mark.django_db

TITLE = "组相对策略优化在智能体训练中的应用"
TITLE_TRADITIONAL = "組相對策略優化在智能體訓練中的應用"


def _targets(page: Page) -> set[str]:
    return set(WikiLink.objects.filter(source_page=page).values_list("target_slug", flat=True))


def _term() -> GlossaryTerm:
    return glossary_term_create(fields={"slug": "reinforcement-learning", "name_zh": "强化学习",
                                        "name_en": "reinforcement learning"})


def test_links_in_traditional_characters_lead_to_the_page_and_the_term_and_are_not_wanted(client: Client) -> None:
    page_save(slug=TITLE, title=TITLE, body="正文。")
    _term()
    linker = page_save(slug="奖励塑形的陷阱", title="奖励塑形的陷阱",
                       body=f"见 [[{TITLE_TRADITIONAL}]]、[[强化學習]] 与 [[強化學習|RL]]。").revision.page

    html = linker.rendered_html
    assert "wanted" not in html
    assert f'class="wikilink" href="{reverse("wiki:page-detail", kwargs={"slug": TITLE})}"' in html
    assert html.count('class="wikilink term" href="/glossary/reinforcement-learning/"') == 2
    assert _targets(linker) == {TITLE, "强化学习"}
    assert list(WikiLink.objects.wanted()) == []
    wanted = client.get(reverse("wiki:wanted-pages")).content.decode()
    assert TITLE_TRADITIONAL not in wanted and "強化學習" not in wanted
    assert [link.source_page.slug for link in WikiLink.objects.backlinks_to(TITLE)] == ["奖励塑形的陷阱"]
    term_page = client.get(reverse("wiki:glossary-detail", kwargs={"slug": "reinforcement-learning"})).content.decode()
    assert reverse("wiki:page-detail", kwargs={"slug": "奖励塑形的陷阱"}) in term_page


def test_a_title_in_traditional_characters_is_found_by_a_link_in_simplified_ones_and_the_other_way_round() -> None:
    page_save(slug="rl-notes", title="強化學習筆記", body="x")
    page_save(slug="credit", title="信用分配问题", body="y")

    html = page_preview(body="[[强化学习笔记]] [[信用分配問題]] [[rl-notes]]").result.html

    assert html.count('href="/wiki/rl-notes/"') == 2 and 'href="/wiki/credit/"' in html
    assert Page.objects.get(slug="rl-notes").title_key == "强化学习笔记" == link_key("強化學習筆記")


def test_an_address_wins_over_the_same_address_in_other_characters_and_that_over_a_title() -> None:
    page_save(slug="強化學習", title="Traditional address", body="x")
    page_save(slug="强化学习", title="Simplified address", body="y")
    page_save(slug="titled", title="強化學習", body="z")

    html = page_preview(body="[[強化學習]] [[强化学习]] [[强化學習]]").result.html

    assert 'href="/wiki/%E5%BC%B7%E5%8C%96%E5%AD%B8%E7%BF%92/"' in html  # 強化學習, its own address
    assert html.count('href="/wiki/%E5%BC%BA%E5%8C%96%E5%AD%A6%E4%B9%A0/"') == 2  # 强化学习
    assert "/wiki/titled/" not in html


def test_a_wanted_page_linked_in_both_forms_is_one_and_writing_it_makes_every_link_lead_to_it(client: Client) -> None:
    traditional = page_save(slug="a", title="A", body="[[獎勵塑形的陷阱]]").revision.page
    simplified = page_save(slug="b", title="B", body="[[奖励塑形的陷阱]]").revision.page
    assert [(row["target_slug"], row["links"]) for row in WikiLink.objects.wanted()] == [("奖励塑形的陷阱", 2)]
    missing = client.get(reverse("wiki:page-detail", kwargs={"slug": "奖励塑形的陷阱"}))
    assert missing.status_code == 404 and reverse("wiki:page-detail", kwargs={"slug": "a"}) in missing.content.decode()

    page_save(slug="reward-shaping", title="奖励塑形的陷阱", body="正文。")

    for page in (traditional, simplified):
        page.refresh_from_db()
        assert 'href="/wiki/reward-shaping/"' in page.rendered_html and "wanted" not in page.rendered_html
        assert _targets(page) == {"reward-shaping"}
    assert list(WikiLink.objects.wanted()) == []


def test_an_address_typed_in_traditional_characters_finds_the_page(client: Client) -> None:
    page_save(slug=TITLE, title=TITLE, body="正文。")
    response = client.get(reverse("wiki:page-detail", kwargs={"slug": TITLE_TRADITIONAL}))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("wiki:page-detail", kwargs={"slug": TITLE}))


def test_link_targets_take_the_same_queries_whatever_the_number_of_links() -> None:
    _term()
    for n in range(12):
        make_page(slug=f"page-{n}", title=f"強化學習 {n}")
    counts = []
    for n in (1, 12):
        slugs = [f"强化学习-{i}" for i in range(n)] + ["強化學習", "缺页"]
        with CaptureQueriesContext(connection) as queries:
            targets = link_targets(slugs)
        counts.append(len(queries.captured_queries))
        assert targets.aliases == {f"强化学习-{i}": f"page-{i}" for i in range(n)}
        assert targets.terms == {"强化学习": "reinforcement-learning"}
    assert counts == [4, 4]


migration = importlib.import_module("wiki.migrations.0045_links_and_headings_read_anew")


def test_the_migration_reads_titles_names_and_links_in_traditional_characters_anew() -> None:
    page = page_save(slug="rl", title="強化學習筆記", body="x").revision.page
    page_save(slug="rl", title="RL notes", body="x")
    term = _term()
    GlossaryTerm.objects.filter(pk=term.pk).update(name_zh="強化學習")
    titled = page_save(slug="grpo-zh", title=TITLE_TRADITIONAL, body="x").revision.page
    linker = page_save(slug="linker", title="Linker", body=f"[[{TITLE}]] [[強化學習]] [[强化学习笔记]] [[未來頁面]]").revision.page
    # As the wiki stored them before links read Traditional characters: the keys as written, the links and their HTML.
    Page.objects.filter(pk=titled.pk).update(title_key=TITLE_TRADITIONAL)
    GlossaryTerm.objects.filter(pk=term.pk).update(link_keys=["reinforcement-learning", "強化學習"])
    PageRedirect.objects.filter(page=page).update(slug="強化學習筆記")
    Page.objects.filter(pk=linker.pk).update(rendered_html="<p>old</p>")
    WikiLink.objects.filter(source_page=linker).delete()
    WikiLink.objects.bulk_create([WikiLink(source_page=linker, target_slug=slug, target_title=slug)
                                  for slug in (TITLE, "強化學習", "强化学习笔记", "未來頁面")])

    with connection.schema_editor() as schema_editor:
        migration.forward(apps, schema_editor)

    assert Page.objects.get(pk=titled.pk).title_key == TITLE
    assert GlossaryTerm.objects.get(pk=term.pk).link_keys == ["reinforcement-learning", "强化学习"]
    assert set(PageRedirect.objects.filter(page=page).values_list("slug", flat=True)) == {"強化學習筆記", "强化学习笔记"}
    html = Page.objects.get(pk=linker.pk).rendered_html
    assert 'href="/wiki/grpo-zh/"' in html and 'href="/glossary/reinforcement-learning/"' in html
    assert 'href="/wiki/rl/"' in html
    assert _targets(linker) == {"grpo-zh", "强化学习", "rl", "未来页面"}

    with connection.schema_editor() as schema_editor:
        migration.backward(apps, schema_editor)

    assert Page.objects.get(pk=titled.pk).title_key == TITLE_TRADITIONAL
    assert GlossaryTerm.objects.get(pk=term.pk).link_keys == ["reinforcement-learning", "強化學習"]


def test_a_page_at_an_address_in_traditional_characters_takes_its_links_back_when_restored() -> None:
    from wiki.services.deletion import page_delete, page_restore

    page = page_save(slug="強化學習", title="RL", body="x").revision.page
    linker = page_save(slug="linker", title="Linker", body="[[強化學習]]").revision.page
    assert _targets(linker) == {"強化學習"}

    page_delete(page=page, user=None, reason="test")
    linker.refresh_from_db()
    assert "wikilink wanted" in linker.rendered_html and _targets(linker) == {"强化学习"}

    page_restore(page=Page.all_objects.get(slug="強化學習"), user=None)
    linker.refresh_from_db()
    assert "wanted" not in linker.rendered_html and _targets(linker) == {"強化學習"}
