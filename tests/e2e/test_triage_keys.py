"""An editor works through the triage queue from the keyboard: j/k move, a accepts, o opens the override form."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse

from tests.e2e.accounts import log_in
from tests.factories import make_editor
from wiki.models import Classification, SetBy, Source

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _names(tab: Any) -> list[str]:
    return [name.strip() for name in tab.locator(".triage-item h2 a").all_inner_texts()]


def _open_queue(tab: Any, live_server: Any, tail: str = "") -> list[str]:
    """The triage queue as an editor sees it, after logging in; the names of its works."""
    make_editor("triager")
    log_in(tab, live_server.url, "triager")
    tab.goto(f"{live_server.url}{reverse('wiki:triage')}{tail}")
    return _names(tab)


def _focused(tab: Any) -> str:
    return str(tab.evaluate("document.activeElement.querySelector('h2 a').textContent")).strip()


def test_an_editor_triages_the_queue_from_the_keyboard(page: Any, live_server: Any, seed: None) -> None:
    names = _open_queue(page, live_server)
    assert len(names) >= 3
    assert _focused(page) == names[0]
    page.keyboard.press("j")
    page.keyboard.press("j")
    assert _focused(page) == names[2]
    page.keyboard.press("k")
    assert _focused(page) == names[1]

    # a: the focused work's suggestion is accepted, recorded as the classifier's, and the work leaves the queue.
    with page.expect_navigation():
        page.keyboard.press("a")
    accepted = Source.objects.get(short_name=names[1])
    classification = Classification.objects.get(source=accepted)
    assert classification.set_by == SetBy.CLASSIFIER
    remaining = _names(page)
    assert names[1] not in remaining
    assert remaining == [name for name in names if name != names[1]][:len(remaining)]

    # o: the override form of the focused work.
    page.keyboard.press("j")
    second = _focused(page)
    with page.expect_navigation():
        page.keyboard.press("o")
    overridden = Source.objects.get(short_name=second)
    assert urlsplit(page.url).path == reverse("wiki:classification-create", kwargs={"slug": overridden.slug})
    assert not Classification.objects.filter(source=overridden).exists()


def test_after_an_accept_the_keys_go_on_at_the_next_work(page: Any, live_server: Any, seed: None) -> None:
    from playwright.sync_api import expect

    names = _open_queue(page, live_server)
    assert len(names) >= 4

    # j a a: the second work is accepted, then the third (which took its place), never the first.
    page.keyboard.press("j")
    with page.expect_navigation():
        page.keyboard.press("a")
    message = page.locator(".messages .message.success")
    expect(message).to_have_count(1)
    assert names[1] in message.inner_text()
    expect(page.locator(f"#triage-{Source.objects.get(short_name=names[2]).slug}")).to_be_focused()
    # seen above the work it moved on to, and read out where a screen reader reads it out
    expect(message).to_be_in_viewport()
    expect(page.locator("#triage-status")).to_contain_text(names[1])
    assert _focused(page) == names[2]
    with page.expect_navigation():
        page.keyboard.press("a")
    expect(page.locator(".messages .message.success")).to_contain_text(names[2])
    assert _focused(page) == names[3]
    classified = set(Classification.objects.values_list("source__short_name", flat=True))
    assert {names[1], names[2]} <= classified and names[0] not in classified


def test_a_twice_in_quick_succession_accepts_once_and_says_so(page: Any, live_server: Any, seed: None) -> None:
    from playwright.sync_api import expect

    names = _open_queue(page, live_server)
    classified = Classification.objects.count()

    with page.expect_navigation():
        page.keyboard.press("a")
        page.keyboard.press("a")
    expect(page.locator(".messages .message.success")).to_contain_text(names[0])
    expect(page.locator(".messages .message")).to_have_count(1)  # not "classified already"
    assert Classification.objects.count() == classified + 1
    assert _focused(page) == names[1]


def test_a_work_with_nothing_to_read_offers_only_its_override_form(page: Any, live_server: Any, seed: None) -> None:
    from playwright.sync_api import expect

    blank = Source.objects.create(slug="blankly", short_name="Blankly", title="Blankly", notes="A benchmark of web tasks.")
    _open_queue(page, live_server, "?order=least#triage-blankly")
    item = page.locator("#triage-blankly")
    expect(item).to_be_focused()
    expect(item.locator("[data-key=a]")).to_have_count(0)
    page.keyboard.press("a")
    expect(item).to_be_focused()
    expect(page.locator("#triage-status")).to_have_text(
        "This work has no suggestion to accept: press o to classify it yourself.")
    assert not Classification.objects.filter(source=blank).exists()
    with page.expect_navigation():
        page.keyboard.press("o")
    assert urlsplit(page.url).path == reverse("wiki:classification-create", kwargs={"slug": "blankly"})
    [back] = parse_qs(urlsplit(page.url).query)["next"]
    assert back.startswith(reverse("wiki:triage") + "?order=least#triage-")


def test_the_keys_do_nothing_while_focus_is_outside_the_queue(page: Any, live_server: Any, seed: None) -> None:
    names = _open_queue(page, live_server)
    before = Classification.objects.count()

    # on a link of the site's navigation, a letter is a letter: nothing is accepted, opened or moved
    link = page.locator(f".site-nav a[href='{reverse('wiki:source-list')}']")
    link.focus()
    for key in ("a", "j", "k", "o"):
        page.keyboard.press(key)
    page.wait_for_timeout(300)
    assert page.url.endswith(reverse("wiki:triage"))
    assert page.evaluate("document.activeElement.getAttribute('href')") == reverse("wiki:source-list")
    assert Classification.objects.count() == before

    # nor from the log-out button or the search field
    page.locator(".account form[action] button[type=submit]").last.focus()
    page.keyboard.press("a")
    page.locator("#site-search-q").focus()
    page.keyboard.press("a")
    page.wait_for_timeout(300)
    assert page.url.endswith(reverse("wiki:triage"))
    assert Classification.objects.count() == before

    # back in the queue (on a work's link), the keys work again
    page.locator(".triage-item h2 a").first.focus()
    page.keyboard.press("j")
    assert _focused(page) == names[1]


def test_the_keys_work_in_capitals_as_with_caps_lock_or_shift(page: Any, live_server: Any, seed: None) -> None:
    names = _open_queue(page, live_server)
    before = Classification.objects.count()

    # typed into the search field, a capital is a capital: nothing moves or is accepted
    page.locator("#site-search-q").focus()
    page.keyboard.press("Shift+A")
    page.wait_for_timeout(300)
    assert page.locator("#site-search-q").input_value() == "A"
    assert Classification.objects.count() == before

    # on a work, Shift+J moves on as j does and "K" (Caps Lock on) back as k does
    page.locator(".triage-item h2 a").first.focus()
    page.keyboard.press("Shift+J")
    page.keyboard.press("Shift+J")
    assert _focused(page) == names[2]
    page.keyboard.press("K")
    assert _focused(page) == names[1]

    with page.expect_navigation():
        page.keyboard.press("Shift+A")
    assert Classification.objects.filter(source__short_name=names[1]).exists()

    second = _focused(page)
    with page.expect_navigation():
        page.keyboard.press("O")
    overridden = Source.objects.get(short_name=second)
    assert urlsplit(page.url).path == reverse("wiki:classification-create", kwargs={"slug": overridden.slug})
