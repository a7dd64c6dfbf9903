"""A reader switches the interface's language in the header, and the choice is kept."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.accounts import log_in
from tests.factories import PASSWORD, make_editor
from wiki.models import ReaderProfile

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _chinese_browser(playwright_page: Any) -> Any:
    """A second browser whose language is Chinese, with no cookies of its own."""
    context = playwright_page.context.browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    return tab


def test_a_reader_switches_to_english_and_the_choice_is_kept(page: Any, live_server: Any, seed: None) -> None:
    base = live_server.url
    tab = _chinese_browser(page)
    tab.goto(f"{base}{reverse('wiki:source-list')}")
    assert tab.locator("html").get_attribute("lang") == "zh-Hans"
    assert tab.locator("h1").inner_text() == "来源"

    tab.click(".language-switch button")  # "English", without JavaScript needed: a POST form
    tab.wait_for_load_state()
    assert tab.url.endswith(reverse("wiki:source-list") + "#switch-language")  # back where the reader was
    assert tab.locator("html").get_attribute("lang") == "en"
    assert tab.locator("h1").inner_text() == "Sources"

    # Kept: another page, and a later visit, read English although the browser asks for Chinese.
    tab.goto(f"{base}{reverse('wiki:question-list')}")
    assert tab.locator("h1").inner_text() == "Open questions"
    later = tab.context.new_page()
    later.goto(f"{base}{reverse('wiki:home')}")
    assert later.locator("html").get_attribute("lang") == "en"
    assert later.locator(".site-nav").inner_text().split()[:2] == ["Home", "Pages"]

    # And back to Chinese.
    later.click(".language-switch button")
    later.wait_for_load_state()
    assert later.locator("html").get_attribute("lang") == "zh-Hans"
    assert "首页" in later.locator(".site-nav").inner_text()


def test_a_logged_in_editors_choice_follows_them_to_another_browser(page: Any, live_server: Any, seed: None) -> None:
    base = live_server.url
    editor = make_editor("bilingual")
    tab = _chinese_browser(page)
    tab.goto(f"{base}{reverse('login')}")
    tab.fill("input[name=username]", "bilingual")
    tab.fill("input[name=password]", PASSWORD)
    tab.click("main button[type=submit]")
    tab.wait_for_load_state()
    assert tab.locator("html").get_attribute("lang") == "zh-Hans"
    tab.click(".language-switch button")
    tab.wait_for_load_state()
    assert tab.locator("html").get_attribute("lang") == "en"
    assert ReaderProfile.objects.get(user=editor).language == "en"

    elsewhere = _chinese_browser(page)
    elsewhere.goto(f"{base}{reverse('login')}")
    assert elsewhere.locator("html").get_attribute("lang") == "zh-Hans"
    elsewhere.fill("input[name=username]", "bilingual")
    elsewhere.fill("input[name=password]", PASSWORD)
    elsewhere.click("main button[type=submit]")
    elsewhere.wait_for_load_state()
    assert elsewhere.locator("html").get_attribute("lang") == "en"
    assert "Log out" in elsewhere.locator(".account").inner_text()


def test_switching_keeps_the_part_of_the_page_the_reader_was_at(page: Any, live_server: Any, seed: None) -> None:
    tab = _chinese_browser(page)
    tab.goto(f"{live_server.url}{reverse('wiki:page-detail', kwargs={'slug': 'agentic-rl'})}")
    section = tab.locator(".prose h2[id]").nth(3)
    fragment = "#" + section.get_attribute("id")
    tab.goto(f"{live_server.url}{reverse('wiki:page-detail', kwargs={'slug': 'agentic-rl'})}{fragment}")
    assert tab.evaluate("scrollY") > 0

    tab.click(".language-switch button")
    tab.wait_for_load_state()
    assert tab.locator("html").get_attribute("lang") == "en"
    assert tab.evaluate("decodeURIComponent(location.hash)") == fragment
    assert tab.evaluate("scrollY") > 0
    assert -1 <= tab.locator(fragment.replace("#", "[id='") + "']").bounding_box()["y"] < 100


def test_the_switch_keeps_the_keyboard_readers_focus_with_or_without_scripts(page: Any, live_server: Any, seed: None) -> None:
    """Switched, the page comes back with the switch focused and the header in view, so Tab goes on from the header
    rather than from the top; scripts or none. After a watch, whose address names the watch button, the switch comes
    back to itself, not to that button."""
    base = live_server.url
    for scripts in (False, True):
        make_editor(f"keyboard-{scripts}")  # each starting in Chinese: the switch keeps the choice in the profile
        context = page.context.browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN",
                                                   java_script_enabled=scripts)
        tab = context.new_page()
        log_in(tab, base, f"keyboard-{scripts}")
        tab.goto(f"{base}{reverse('wiki:page-detail', kwargs={'slug': 'agentic-rl'})}")
        with tab.expect_navigation():
            tab.click("#watch-button")
        assert tab.evaluate("location.hash") == "#watch-button"
        tab.focus("#switch-language")
        with tab.expect_navigation():
            tab.keyboard.press("Enter")
        assert tab.locator("html").get_attribute("lang") == "en"
        assert tab.evaluate("document.activeElement.id") == "switch-language"
        assert tab.evaluate("document.activeElement.textContent") == "中文"
        assert tab.evaluate("scrollY") == 0
        tab.keyboard.press("Tab")
        assert tab.evaluate("document.activeElement.textContent") == "Watchlist"
        context.close()
