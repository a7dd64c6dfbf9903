"""A logged-in reader watches and unwatches a page, a work or a question with its button, and is brought back to it."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.accounts import log_in
from tests.factories import make_editor
from wiki.models import OpenQuestion, Watch

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1280, 390])
def test_the_watch_button_keeps_focus_and_the_page_in_view_with_or_without_scripts(
        page: Any, live_server: Any, seed: None, width: int) -> None:
    """Pressed, the button comes back focused (Enter presses it again) with the message, the page's title and the
    header still in view: the page is not left at its top with focus lost, nor scrolled to put the button at the
    screen's edge."""
    base = live_server.url
    make_editor("watcher")
    question = OpenQuestion.objects.order_by("pk").first()
    assert question is not None
    items = [reverse("wiki:page-detail", kwargs={"slug": "agentic-rl"}),
             reverse("wiki:source-detail", kwargs={"slug": "agent-lightning"}), question.get_absolute_url()]
    for scripts in (False, True):
        context = page.context.browser.new_context(viewport={"width": width, "height": 844}, locale="zh-CN",
                                                   java_script_enabled=scripts)
        tab = context.new_page()
        log_in(tab, base, "watcher")
        for url in items:
            tab.goto(f"{base}{url}")
            with tab.expect_navigation():
                tab.click("#watch-button")
            assert tab.evaluate("document.activeElement.id") == "watch-button"
            assert "取消关注" in tab.locator("#watch-button").inner_text()
            assert tab.locator(".messages").is_visible() and tab.locator("h1").is_visible()
            box = tab.locator("#watch-button").bounding_box()
            assert box is not None and box["y"] > tab.locator("h1").bounding_box()["y"] and box["y"] < 844
            if width == 1280:
                assert tab.evaluate("scrollY") == 0
            with tab.expect_navigation():
                tab.keyboard.press("Enter")
            assert tab.evaluate("document.activeElement.id") == "watch-button"
            assert "取消关注" not in tab.locator("#watch-button").inner_text()
        assert not Watch.objects.exists()
        context.close()
