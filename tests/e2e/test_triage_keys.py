"""An editor works through the triage queue from the keyboard: j/k move, a accepts, o opens the override form."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.accounts import log_in
from tests.factories import make_editor
from wiki.models import Classification, SetBy, Source

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _names(tab: Any) -> list[str]:
    return [name.strip() for name in tab.locator(".triage-item h2 a").all_inner_texts()]


def _focused(tab: Any) -> str:
    return str(tab.evaluate("document.activeElement.querySelector('h2 a').textContent")).strip()


def test_an_editor_triages_the_queue_from_the_keyboard(page: Any, live_server: Any, seed: None) -> None:
    make_editor("triager")
    log_in(page, live_server.url, "triager")
    page.goto(f"{live_server.url}{reverse('wiki:triage')}")
    names = _names(page)
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
    assert page.url.endswith(reverse("wiki:classification-create", kwargs={"slug": overridden.slug}))
    assert not Classification.objects.filter(source=overridden).exists()
