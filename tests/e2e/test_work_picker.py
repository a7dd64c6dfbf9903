"""Choosing works by typing them, in a real browser: matching works are offered as the editor types, and the field
still works as plain text without JavaScript."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.accounts import log_in
from tests.factories import make_editor
from wiki.models import Contrast, OpenQuestion, Page, Source

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _options(page: Any, list_id: str) -> list[tuple[str, str]]:
    options: list[tuple[str, str]] = page.eval_on_selector_all(f"datalist#{list_id} option", "(os) => os.map((o) => [o.value, o.label])")
    return options


def test_the_contrast_form_offers_matching_works_as_the_editor_types(page: Any, live_server: Any, seed: None) -> None:
    make_editor("picker")
    log_in(page, live_server.url, "picker")
    refused: list[str] = []
    page.on("console", lambda message: refused.append(message.text) if "Content Security Policy" in message.text else None)
    arena = Source.objects.get(slug="webarena")

    page.goto(f"{live_server.url}{reverse('wiki:contrast-create')}?left=skillforge")
    assert page.input_value("input[name=left]") == "skillforge"
    page.locator("input[name=right]").press_sequentially("w")
    page.wait_for_timeout(600)
    assert _options(page, "id_right-options") == []  # one character asks for nothing
    page.locator("input[name=right]").press_sequentially("ebar")
    page.wait_for_function("() => document.querySelectorAll('datalist#id_right-options option').length > 0")
    offered = dict(_options(page, "id_right-options"))
    assert offered["webarena"] == f"{arena.short_name} — {arena.title}"

    page.fill("input[name=right]", "webarena")
    page.fill("input[name=axis]", "policy update vs harness evolution")
    page.click("button:has-text('Add contrast')")
    page.wait_for_url(re.compile(r"/sources/skillforge/$"))
    assert Contrast.objects.filter(left__slug="skillforge", right=arena, axis="policy update vs harness evolution").exists()
    assert refused == []


def test_a_field_of_several_works_completes_the_name_after_the_last_comma(page: Any, live_server: Any, seed: None) -> None:
    make_editor("picker")
    log_in(page, live_server.url, "picker")

    page.goto(f"{live_server.url}{reverse('wiki:question-create')}")
    page.locator("input[name=sources]").press_sequentially("skillforge, starhar")
    page.wait_for_function("() => document.querySelectorAll('datalist#id_sources-options option').length > 0")
    assert "skillforge, starharness" in dict(_options(page, "id_sources-options"))


def test_without_javascript_a_work_is_typed_by_its_short_name(page: Any, live_server: Any, seed: None) -> None:
    make_editor("picker")
    tab = page.context.browser.new_context(java_script_enabled=False).new_page()
    log_in(tab, live_server.url, "picker")
    world = Source.objects.get(slug="osworld")

    tab.goto(f"{live_server.url}{reverse('wiki:contrast-create')}")
    assert tab.locator("datalist").count() == 0
    tab.fill("input[name=left]", "astar")
    tab.fill("input[name=right]", "No Such Work")
    tab.fill("input[name=axis]", "typed by hand")
    tab.click("button:has-text('Add contrast')")
    assert "No work has the slug or short name “No Such Work”." in tab.content()
    tab.fill("input[name=right]", world.short_name.upper())
    tab.click("button:has-text('Add contrast')")
    tab.wait_for_url(re.compile(r"/sources/astar/$"))
    assert Contrast.objects.filter(left__slug="astar", right=world, axis="typed by hand").exists()


def test_the_question_form_offers_matching_pages_as_the_editor_types(page: Any, live_server: Any, seed: None) -> None:
    make_editor("picker")
    log_in(page, live_server.url, "picker")
    agentic = Page.objects.get(slug="agentic-rl")

    page.goto(f"{live_server.url}{reverse('wiki:question-create')}")
    page.locator("input[name=page]").press_sequentially("agentic")
    page.wait_for_function("() => document.querySelectorAll('datalist#id_page-options option').length > 0")

    offered = dict(_options(page, "id_page-options"))
    assert offered["agentic-rl"] == agentic.title


def test_enter_in_the_question_forms_page_field_shows_its_claims_and_adds_nothing(
        page: Any, live_server: Any, seed: None) -> None:
    make_editor("picker")
    log_in(page, live_server.url, "picker")
    agentic = Page.objects.get(slug="agentic-rl")
    questions = OpenQuestion.objects.count()

    page.goto(f"{live_server.url}{reverse('wiki:question-create')}")
    page.fill("input[name=title]", "Which works update the policy online?")
    page.fill("input[name=page]", "agentic-rl")
    page.locator("input[name=page]").press("Enter")
    page.wait_for_load_state()
    claim = agentic.claims.current().order_by("pk").first()
    assert claim is not None
    assert page.locator(f"input[name=claims][value='{claim.pk}']").count() == 1
    assert page.input_value("input[name=title]") == "Which works update the policy online?"
    assert OpenQuestion.objects.count() == questions


def test_enter_in_the_contrast_forms_work_field_shows_their_components_and_adds_nothing(
        page: Any, live_server: Any, seed: None) -> None:
    make_editor("picker")
    log_in(page, live_server.url, "picker")
    contrasts = Contrast.objects.count()

    page.goto(f"{live_server.url}{reverse('wiki:contrast-create')}")
    page.fill("input[name=left]", "astar")
    page.fill("input[name=right]", "osworld")
    page.fill("input[name=axis]", "policy update vs external harness evolution")
    page.locator("input[name=right]").press("Enter")
    page.wait_for_load_state()
    assert "/contrasts/new/" in page.url
    assert page.input_value("input[name=axis]") == "policy update vs external harness evolution"
    assert Contrast.objects.count() == contrasts
