"""The header's search box, in a real browser: "/" goes to it, it offers the works and pages whose name starts with
what is typed, choosing one opens it, and Enter still searches."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _options(page: Any) -> list[list[str]]:
    options: list[list[str]] = page.eval_on_selector_all(
        "datalist#site-search-q-options option", "(os) => os.map((o) => [o.value, o.label])")
    return options


def test_the_header_offers_names_as_the_reader_types_and_a_choice_opens_it(page: Any, live_server: Any, seed: None) -> None:
    refused: list[str] = []
    page.on("console", lambda message: refused.append(message.text) if "Content Security Policy" in message.text else None)
    page.goto(f"{live_server.url}/")

    page.locator("#site-search-q").press_sequentially("s")
    page.wait_for_timeout(500)
    assert _options(page) == []  # one character asks for nothing
    page.locator("#site-search-q").press_sequentially("kil")
    page.wait_for_function("() => document.querySelectorAll('datalist#site-search-q-options option').length > 0")
    assert ["SkillForge", "Source"] in _options(page)

    # Choosing from the list: the browser sets the value and sends an input event that no typing made.
    page.eval_on_selector("#site-search-q", "(i) => { i.value = 'SkillForge'; i.dispatchEvent(new Event('input')); }")
    page.wait_for_url(re.compile(r"/sources/skillforge/$"))

    # A name a page and a glossary term share is offered once for each, and each choice opens its own.
    page.locator("#site-search-q").fill("")
    page.locator("#site-search-q").press_sequentially("Agentic R")
    page.wait_for_function("() => document.querySelectorAll('datalist#site-search-q-options option').length > 1")
    values = [value for value, _ in _options(page)]
    shared = [value for value in values if value == "Agentic RL" or value.startswith("Agentic RL · ")]
    assert shared == ["Agentic RL", "Agentic RL · Glossary term"], values
    page.eval_on_selector("#site-search-q", f"(i) => {{ i.value = '{shared[1]}'; i.dispatchEvent(new Event('input')); }}")
    page.wait_for_url(re.compile(r"/glossary/[^/]+/$"))

    # "/" outside a field goes to the box; typed in a field, it is a character like any other.
    page.locator("body").press("/")
    assert page.evaluate("document.activeElement.id") == "site-search-q"
    page.keyboard.type("GRPO")
    assert page.input_value("#site-search-q") == "GRPO"
    page.locator("#site-search-q").press("/")
    assert page.input_value("#site-search-q") == "GRPO/"
    page.locator("#site-search-q").fill("GRPO")
    page.locator("#site-search-q").press("Enter")
    page.wait_for_url(re.compile(r"/search/\?q=GRPO$"))
    assert refused == []


def test_the_slash_key_can_be_turned_off_in_the_preferences_and_on_again(page: Any, live_server: Any) -> None:
    base = live_server.url
    page.goto(f"{base}/")
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "site-search-q"

    page.goto(f"{base}/account/preferences/")
    setting = page.locator("[data-shortcut-setting] input[type=checkbox]")
    assert setting.is_visible() and setting.is_checked()
    setting.uncheck()
    page.goto(f"{base}/")
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") != "site-search-q"
    assert page.locator("#site-search-q").get_attribute("aria-keyshortcuts") is None

    page.goto(f"{base}/account/preferences/")
    page.locator("[data-shortcut-setting] input[type=checkbox]").check()
    page.goto(f"{base}/")
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "site-search-q"


def test_one_chinese_character_is_enough_for_the_header_to_offer_names(page: Any, live_server: Any, seed: None) -> None:
    page.goto(f"{live_server.url}/")

    page.locator("#site-search-q").press_sequentially("强")  # as an input method commits it

    page.wait_for_function("() => document.querySelectorAll('datalist#site-search-q-options option').length > 0")
    assert "强化学习" in [value for value, _ in _options(page)]


def test_the_header_offers_a_works_component_marked_as_one_in_either_language(page: Any, live_server: Any, seed: None) -> None:
    for language, label in (("zh-hans", "组件"), ("en", "Component")):
        page.context.add_cookies([{"name": "wiki_language", "value": language, "url": live_server.url}])
        page.goto(f"{live_server.url}/")
        page.locator("#site-search-q").press_sequentially("Tree-G")
        page.wait_for_function("() => document.querySelectorAll('datalist#site-search-q-options option').length > 0")
        assert ["Shepherd Tree-GRPO", label] in _options(page), language

    page.eval_on_selector("#site-search-q", "(i) => { i.value = 'Shepherd Tree-GRPO'; i.dispatchEvent(new Event('input')); }")
    page.wait_for_url(re.compile(r"/sources/shepherd/#component-tree-grpo$"))
