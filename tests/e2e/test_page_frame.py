"""The frame around every page: a page shorter than the window ends with its footer, not with a band of the page's
colour under it."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _colour_at(tab: Any, x: float, y: float) -> bytes:
    """The pixel drawn at (x, y) of the window, as the PNG of it alone: two pixels of one colour give the same bytes."""
    return bytes(tab.screenshot(clip={"x": x, "y": y, "width": 1, "height": 1}, animations="disabled", caret="initial"))


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("url", [reverse("wiki:page-detail", kwargs={"slug": "no-such-page"}), reverse("login")])
def test_below_the_footer_of_a_short_page_the_window_shows_the_footers_colour(
        page: Any, live_server: Any, url: str, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)
    page.goto(live_server.url + url)
    footer = page.locator(".site-footer").bounding_box()
    height = page.viewport_size["height"]
    assert footer["y"] + footer["height"] < height - 40  # the page is short: the window goes on below its footer

    inside = _colour_at(page, 5, footer["y"] + footer["height"] - 5)
    assert _colour_at(page, 5, height - 5) == inside
    assert _colour_at(page, 640, height - 20) == inside
