"""A wiki link leads to the page of that address, else to the page of that title (whatever its slug), else to the
glossary term it names, else it is wanted; creating, retitling, deleting and restoring a page moves the links that
name it, with their backlinks."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import make_page
from wiki.models import Page, WikiLink
from wiki.services.deletion import page_delete, page_restore
from wiki.services.glossary import glossary_term_create
from wiki.services.pages import page_preview, page_save

pytestmark = pytest.mark.django_db

SURVEY = "Agentic AI 03: Agentic RL Survey Reading Notes"


def _targets(page: Page) -> set[str]:
    return set(WikiLink.objects.filter(source_page=page).values_list("target_slug", flat=True))


def _html(slug: str) -> str:
    return Page.objects.get(slug=slug).rendered_html


def test_a_link_naming_a_title_leads_to_that_page_and_counts_as_its_backlink(client: Client) -> None:
    page_save(slug="agentic-rl-survey-notes", title=SURVEY, body="笔记。")
    linker = page_save(slug="linker", title="Linker", body=f"见 [[{SURVEY}]] 与 [[{SURVEY}#定义|定义]]。").revision.page

    assert 'href="/wiki/agentic-rl-survey-notes/"' in linker.rendered_html
    assert 'href="/wiki/agentic-rl-survey-notes/#定义"' in linker.rendered_html
    assert "wanted" not in linker.rendered_html
    assert _targets(linker) == {"agentic-rl-survey-notes"}
    assert list(WikiLink.objects.wanted()) == []
    backlinks = client.get(reverse("wiki:page-backlinks", kwargs={"slug": "agentic-rl-survey-notes"})).content.decode()
    assert 'href="/wiki/linker/"' in backlinks


def test_the_title_is_read_as_a_link_reads_it_in_any_case_and_spacing() -> None:
    page_save(slug="notes", title="Reading Notes: GRPO", body="x")
    preview = page_preview(body="[[reading notes grpo]] [[Reading  Notes:  GRPO]]").result

    assert preview.html.count('href="/wiki/notes/"') == 2
    assert [link.target_slug for link in preview.links] == ["notes"]


def test_an_address_wins_over_a_title_and_a_page_over_a_glossary_term() -> None:
    page_save(slug="grpo", title="GRPO", body="the page at the address")
    page_save(slug="grpo-notes", title="grpo", body="a page titled as the other's address")
    glossary_term_create(fields={"slug": "credit-assignment", "name_zh": "信用分配", "name_en": "credit assignment"})
    assert "/glossary/credit-assignment/" in page_preview(body="[[信用分配]]").result.html
    page_save(slug="ca-notes", title="信用分配", body="a page titled as a term")

    html = page_preview(body="[[grpo]] [[信用分配]]").result.html

    assert 'href="/wiki/grpo/"' in html
    assert 'href="/wiki/ca-notes/"' in html
    assert "/glossary/" not in html


def test_of_pages_sharing_a_title_the_oldest_is_linked() -> None:
    first = page_save(slug="shared-a", title="Shared", body="x").revision.page
    page_save(slug="shared-b", title="Shared", body="y")
    page_save(slug="linker", title="Linker", body="[[Shared]]")

    assert first.title_key == "shared"
    assert _targets(Page.objects.get(slug="linker")) == {"shared-a"}


def test_creating_a_page_whose_title_a_wanted_link_names_turns_the_link_into_a_backlink() -> None:
    linker = page_save(slug="linker", title="Linker", body=f"[[{SURVEY}]]").revision.page
    assert "wikilink wanted" in linker.rendered_html
    assert _targets(linker) == {"agentic-ai-03-agentic-rl-survey-reading-notes"}

    page_save(slug="agentic-rl-survey-notes", title=SURVEY, body="笔记。")

    assert 'href="/wiki/agentic-rl-survey-notes/"' in _html("linker")
    assert _targets(linker) == {"agentic-rl-survey-notes"}
    assert [link.source_page.slug for link in WikiLink.objects.backlinks_to("agentic-rl-survey-notes")] == ["linker"]
    assert list(WikiLink.objects.wanted()) == []


def test_retitling_a_page_takes_the_links_naming_its_new_title_and_keeps_those_naming_the_old() -> None:
    page_save(slug="notes", title="Old Title", body="x")
    old = page_save(slug="old-linker", title="Old linker", body="[[Old Title]]").revision.page
    new = page_save(slug="new-linker", title="New linker", body="[[New Title]]").revision.page
    assert (_targets(old), _targets(new)) == ({"notes"}, {"new-title"})

    page_save(slug="notes", title="New Title", body="x")

    assert (_targets(old), _targets(new)) == ({"notes"}, {"notes"})
    assert 'href="/wiki/notes/"' in _html("old-linker") and "wanted" not in _html("old-linker")
    assert 'href="/wiki/notes/"' in _html("new-linker")
    assert Page.objects.get(slug="notes").title_key == "new-title"


def test_a_deleted_page_s_title_links_are_wanted_or_lead_to_the_other_page_of_that_title_until_it_is_restored() -> None:
    first = page_save(slug="shared-a", title="Shared", body="x").revision.page
    page_save(slug="shared-b", title="Shared", body="y")
    lone = page_save(slug="lone", title="Lone Title", body="z").revision.page
    linker = page_save(slug="linker", title="Linker", body="[[Shared]] [[Lone Title]]").revision.page

    page_delete(page=first, user=None, reason="test")
    page_delete(page=lone, user=None, reason="test")
    assert _targets(linker) == {"shared-b", "lone-title"}
    assert 'href="/wiki/shared-b/"' in _html("linker")

    page_restore(page=Page.all_objects.get(slug="shared-a"), user=None)
    page_restore(page=Page.all_objects.get(slug="lone"), user=None)
    assert _targets(linker) == {"shared-a", "lone"}
    assert "wanted" not in _html("linker")


def test_the_migration_fills_every_title_key() -> None:
    migration = importlib.import_module("wiki.migrations.0024_page_title_key")
    page = make_page(slug="survey", title=SURVEY)
    chinese = make_page(slug="zh", title="信用分配 笔记")
    Page.objects.filter(pk__in=[page.pk, chinese.pk]).update(title_key="")

    migration.fill(apps, None)

    assert dict(Page.objects.values_list("slug", "title_key")) == {
        "survey": "agentic-ai-03-agentic-rl-survey-reading-notes", "zh": "信用分配-笔记"}


def _queries_to_retitle_a_page_linked_by_title_from(n: int, slug: str) -> int:
    page_save(slug=slug, title=f"{slug} old", body="x")
    for i in range(n):
        page_save(slug=f"{slug}-linking-{i}", title=f"{slug} linking {i}", body=f"[[{slug} old]] [[{slug} new]]")
    with CaptureQueriesContext(connection) as retitled:
        page_save(slug=slug, title=f"{slug} new", body="x")
    linking = Page.objects.filter(slug__startswith=f"{slug}-linking-")
    assert {target for page in linking for target in _targets(page)} == {slug}
    return len(retitled.captured_queries)


def test_retitling_a_page_moves_its_title_links_in_a_fixed_number_of_queries() -> None:
    assert _queries_to_retitle_a_page_linked_by_title_from(2, "few") == _queries_to_retitle_a_page_linked_by_title_from(12, "many")


def test_a_page_created_at_an_address_another_page_has_as_its_title_takes_the_links_naming_it() -> None:
    page_save(slug="titled", title="Shared name", body="x")
    linker = page_save(slug="linker", title="Linker", body="[[Shared name]]").revision.page
    assert _targets(linker) == {"titled"}

    page_save(slug="shared-name", title="Another title", body="y")

    assert _targets(linker) == {"shared-name"}
    assert 'href="/wiki/shared-name/"' in _html("linker")
