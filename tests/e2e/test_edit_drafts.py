"""What is typed in a page's edit form is kept as a draft in the browser until it is saved, in a real browser: an editor
whose window closes finds the text again, told so and free to discard it; a save that goes through drops the draft,
and one that does not keeps it; a draft started before someone else saved is merged with their edit, never put
over it."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.accounts import log_in
from tests.factories import make_editor
from wiki.models import Page
from wiki.services.pages import page_save_revision

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TYPED = "\n\n草稿里的一句话，尚未保存。"
NOTICE = ".draft-notice"


def _edit_url(base: str, slug: str = "agentic-rl") -> str:
    return f"{base}{reverse('wiki:page-edit', kwargs={'slug': slug})}"


def _type_at_the_end(tab: Any, text: str) -> None:
    tab.click("textarea[name=body]")
    tab.keyboard.press("Control+End")
    tab.keyboard.type(text)
    tab.wait_for_timeout(800)  # the draft is kept a moment after typing stops


def _drafts(tab: Any) -> dict[str, Any]:
    kept: dict[str, Any] = tab.evaluate(
        "() => Object.fromEntries(Object.keys(localStorage).filter((k) => k.startsWith('wiki-draft:'))"
        ".map((k) => [k, JSON.parse(localStorage.getItem(k))]))")
    return kept


def _closed_and_opened_again(tab: Any, url: str) -> Any:
    """A new tab of the same browser on ``url``, ``tab`` closed without asking (as a crash or a closed window)."""
    again = tab.context.new_page()
    tab.close(run_before_unload=False)
    again.goto(url)
    return again


def test_text_typed_and_left_comes_back_with_a_notice_and_can_be_discarded(page: Any, live_server: Any) -> None:
    make_editor("drafter")
    log_in(page, live_server.url, "drafter")
    saved = Page.objects.get(slug="agentic-rl").body
    page.goto(_edit_url(live_server.url))
    assert page.locator(NOTICE).count() == 0
    _type_at_the_end(page, TYPED)
    assert len(_drafts(page)) == 1

    page = _closed_and_opened_again(page, _edit_url(live_server.url))

    assert page.input_value("textarea[name=body]").replace("\r\n", "\n") == saved + TYPED
    assert "not saved yet" in page.inner_text(NOTICE)
    assert "earlier revision" not in page.inner_text(NOTICE)
    page.click(f"{NOTICE} button")
    assert page.input_value("textarea[name=body]").replace("\r\n", "\n") == saved
    assert "Draft discarded" in page.inner_text(NOTICE)
    assert _drafts(page) == {}
    page.reload()
    assert page.locator(NOTICE).count() == 0


def test_a_save_that_goes_through_drops_the_draft(page: Any, live_server: Any) -> None:
    make_editor("drafter")
    log_in(page, live_server.url, "drafter")
    page.goto(_edit_url(live_server.url))
    _type_at_the_end(page, TYPED)
    page.click("button[name=save]")
    page.wait_for_url(f"{live_server.url}{reverse('wiki:page-detail', kwargs={'slug': 'agentic-rl'})}")
    assert Page.objects.get(slug="agentic-rl").body.endswith(TYPED.strip())

    page.goto(_edit_url(live_server.url))

    assert page.locator(NOTICE).count() == 0
    assert _drafts(page) == {}


def test_a_save_that_is_refused_keeps_the_draft(page: Any, live_server: Any) -> None:
    make_editor("drafter")
    log_in(page, live_server.url, "drafter")
    page.goto(_edit_url(live_server.url))
    _type_at_the_end(page, TYPED)
    page.fill("input[name=title]", "")
    page.wait_for_timeout(800)
    page.click("button[name=save]")
    page.wait_for_selector("[data-error-summary]")
    assert [draft["sent"] for draft in _drafts(page).values()] == [False]

    page = _closed_and_opened_again(page, _edit_url(live_server.url))

    assert page.locator(NOTICE).count() == 1
    assert page.input_value("textarea[name=body]").endswith(TYPED.strip())
    assert page.input_value("input[name=title]") == ""


def test_a_draft_begun_before_another_save_is_merged_with_it_not_put_over_it(page: Any, live_server: Any) -> None:
    editor = make_editor("drafter")
    log_in(page, live_server.url, "drafter")
    page.goto(_edit_url(live_server.url))
    begun_at = int(page.input_value("input[name=base_revision]"))
    _type_at_the_end(page, TYPED)
    current = Page.objects.get(slug="agentic-rl")
    theirs = page_save_revision(slug=current.slug, title=current.title, body="别人先加的一行。\n\n" + current.body,
                                user=editor, comment="meanwhile", base_revision=begun_at)

    page = _closed_and_opened_again(page, _edit_url(live_server.url))

    # The form opens on the latest revision; the draft comes back with the revision it was begun on, and says so.
    assert "earlier revision" in page.inner_text(NOTICE)
    assert page.input_value("input[name=base_revision]") == str(begun_at)
    assert not page.input_value("textarea[name=body]").startswith("别人先加的一行。")
    page.click("button[name=save]")
    page.wait_for_url(f"{live_server.url}{reverse('wiki:page-detail', kwargs={'slug': 'agentic-rl'})}")
    body = Page.objects.get(slug="agentic-rl").body
    assert body.startswith("别人先加的一行。") and body.endswith(TYPED.strip())
    assert Page.objects.get(slug="agentic-rl").revisions.count() == theirs.number + 1
