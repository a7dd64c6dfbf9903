"""An editor whose session ends in another tab while editing loses nothing, in a real browser."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.accounts import log_in
from tests.factories import make_editor
from wiki.models import Page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TYPED = "会话过期前输入的重要文字 IMPORTANT"


def _log_out_in_another_tab(page: Any, base: str) -> None:
    other = page.context.new_page()
    other.goto(f"{base}{reverse('wiki:home')}")
    other.click("form[action='/accounts/logout/'] button")
    other.wait_for_load_state()
    other.close()


def test_an_editor_logged_out_elsewhere_keeps_the_text_and_saves_it_after_logging_in_again(page: Any, live_server: Any) -> None:
    base = live_server.url
    make_editor("sessioned")
    log_in(page, base, "sessioned")
    edit = f"{base}{reverse('wiki:page-edit', kwargs={'slug': 'agentic-rl'})}"
    page.goto(edit)
    _log_out_in_another_tab(page, base)

    # The live preview says so in a line, instead of showing the login page inside the pane.
    page.fill("textarea[name=body]", TYPED)
    page.wait_for_selector("#preview-body p.message.error")
    assert page.locator("#preview-body header, #preview-body form").count() == 0
    assert "log in in another tab" in page.inner_text("#preview-body")

    # Saving gives the form back with the text and says what to do.
    page.fill("input[name=comment]", "session test")
    page.click("button[name=save]")
    page.wait_for_selector("text=Your session has ended, so nothing was saved")
    assert page.input_value("textarea[name=body]") == TYPED
    assert page.input_value("input[name=comment]") == "session test"

    # Logging in again in another tab replaces the CSRF token; the form sends the new one, and saves.
    log_in(page.context.new_page(), base, "sessioned")
    page.click("button[name=save]")
    page.wait_for_url(f"{base}{reverse('wiki:page-detail', kwargs={'slug': 'agentic-rl'})}")
    assert Page.objects.get(slug="agentic-rl").body == TYPED


def test_enter_in_the_title_previews_the_page_and_saves_nothing(page: Any, live_server: Any) -> None:
    base = live_server.url
    make_editor("entering")
    log_in(page, base, "entering")
    saved = Page.objects.get(slug="agentic-rl").revisions.count()
    page.goto(f"{base}{reverse('wiki:page-edit', kwargs={'slug': 'agentic-rl'})}")

    page.fill("input[name=title]", "Agentic RL（预览）")
    page.locator("input[name=title]").press("Enter")

    page.wait_for_selector("#preview-body div.prose")
    assert page.input_value("input[name=title]") == "Agentic RL（预览）"
    assert Page.objects.get(slug="agentic-rl").revisions.count() == saved


def test_leaving_an_edit_with_text_not_saved_asks_first_and_saving_does_not(page: Any, live_server: Any) -> None:
    base = live_server.url
    make_editor("leaving")
    log_in(page, base, "leaving")
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.type)
        dialog.dismiss()

    page.on("dialog", answer)
    page.goto(f"{base}{reverse('wiki:page-edit', kwargs={'slug': 'agentic-rl'})}")

    # Unchanged, the form is left without a question.
    page.click("header a[href='/']")
    page.wait_for_url(f"{base}/")
    assert asked == []

    page.go_back()
    page.click("textarea[name=body]")
    page.keyboard.press("Control+End")
    page.keyboard.type(" 未保存的文字")
    page.click("header a[href='/']")
    page.wait_for_timeout(500)
    assert asked == ["beforeunload"]
    assert "edit" in page.url and page.input_value("textarea[name=body]").endswith("未保存的文字")

    page.click("button[name=save]")
    page.wait_for_url(f"{base}{reverse('wiki:page-detail', kwargs={'slug': 'agentic-rl'})}")
    assert asked == ["beforeunload"]
    assert Page.objects.get(slug="agentic-rl").body.endswith("未保存的文字")
