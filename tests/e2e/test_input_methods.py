"""Typing through an input method (pinyin), in a real browser: the letters it holds before they are committed are no
text yet, so the live preview, the filter box of a list and the pickers wait for the committed characters.

Chromium's DevTools protocol composes as an input method does: ``Input.imeSetComposition`` sets the letters being
composed (the events carry ``isComposing``), ``Input.insertText`` commits the characters chosen."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.accounts import log_in
from tests.factories import make_editor
from wiki.models import Claim

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PINYIN = ["q", "qi", "qia", "qian", "qiang", "qiang'h", "qiang'hua"]


def _compose(page: Any, letters: list[str]) -> Any:
    """Composes ``letters`` one step after another in the focused field, leaving the composition open (the candidate
    window shown); returns the DevTools session, to commit with."""
    devtools = page.context.new_cdp_session(page)
    for text in letters:
        devtools.send("Input.imeSetComposition", {"text": text, "selectionStart": len(text), "selectionEnd": len(text)})
        page.wait_for_timeout(100)
    return devtools


def _requests(page: Any, part: str) -> list[str]:
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url) if part in request.url else None)
    return sent


def test_the_live_preview_waits_for_the_committed_characters(page: Any, live_server: Any) -> None:
    make_editor("composer")
    log_in(page, live_server.url, "composer")
    page.goto(f"{live_server.url}{reverse('wiki:page-edit', kwargs={'slug': 'agentic-rl'})}")
    previews = _requests(page, reverse("wiki:page-preview"))
    page.click("textarea[name=body]")
    page.keyboard.press("Control+End")
    page.keyboard.press("Enter")
    page.wait_for_timeout(800)
    previews.clear()

    devtools = _compose(page, PINYIN)
    page.wait_for_timeout(1500)  # longer than the pause after which the preview is refreshed
    assert previews == []
    assert "qiang" not in page.inner_text("#preview-body")

    devtools.send("Input.insertText", {"text": "强化龘"})
    page.wait_for_function("() => document.getElementById('preview-body').innerText.includes('强化龘')")
    assert len(previews) == 1


def test_the_filter_box_of_a_list_filters_by_the_committed_characters(page: Any, live_server: Any) -> None:
    make_editor("composer")
    log_in(page, live_server.url, "composer")
    claim = Claim.objects.current().select_related("page").filter(page__slug="agentic-rl").first()
    assert claim is not None
    page.goto(f"{live_server.url}{reverse('wiki:question-create')}?page={claim.page.slug}")
    shown = "() => [...document.querySelectorAll('#id_claims label')].filter((l) => l.offsetParent !== null).length"
    everything = page.evaluate(shown)
    assert everything > 1
    page.click("input[data-filter-choices]")

    devtools = _compose(page, PINYIN)
    # No claim holds the letters "qiang'hua": filtering by them would hide every one.
    assert page.evaluate(shown) == everything

    word = claim.text[:2]
    devtools.send("Input.insertText", {"text": word})
    holding = page.evaluate("(word) => [...document.querySelectorAll('#id_claims label')]"
                            ".filter((l) => l.textContent.toLowerCase().includes(word.toLowerCase())).length", word)
    assert holding >= 1
    page.wait_for_function(f"() => ({shown})() === {holding}")


def test_the_pickers_and_the_search_box_look_up_the_committed_characters_only(page: Any, live_server: Any) -> None:
    make_editor("composer")
    log_in(page, live_server.url, "composer")
    page.goto(f"{live_server.url}{reverse('wiki:question-create')}")
    lookups = _requests(page, "q=")

    page.click("input[name=sources]")
    devtools = _compose(page, ["w", "we", "web", "weba"])
    page.wait_for_timeout(800)  # longer than the picker's pause
    assert lookups == []
    devtools.send("Input.insertText", {"text": "webarena"})
    page.wait_for_function("() => document.querySelectorAll('datalist#id_sources-options option').length > 0")
    assert [url for url in lookups if "q=webarena" in url]
    assert not [url for url in lookups if "q=weba&" in url or url.endswith("q=weba")]

    lookups.clear()
    page.click("#site-search-q")
    devtools = _compose(page, PINYIN)
    page.wait_for_timeout(800)
    assert lookups == []
    devtools.send("Input.insertText", {"text": "强化"})
    page.wait_for_timeout(800)
    assert lookups and all("qiang" not in url for url in lookups)
