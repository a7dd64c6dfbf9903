"""The API explorer (Swagger UI) and reference (Redoc) are dark on a device set to dark, unless the reader fixed the
light scheme on the preferences page."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _explorer(page: Any, base: str, device: str, fixed: str | None = None) -> Any:
    context = page.context.browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=device)
    if fixed:
        context.add_cookies([{"name": settings.COLOUR_SCHEME_COOKIE_NAME, "value": fixed, "url": base}])
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    tab.goto(f"{base}/api/docs/")
    tab.wait_for_selector(".swagger-ui .opblock")
    return tab


def _background(tab: Any) -> str:
    return str(tab.evaluate("getComputedStyle(document.querySelector('.swagger-ui')).backgroundColor"))


def test_the_explorer_follows_a_dark_device_and_a_fixed_scheme(page: Any, live_server: Any) -> None:
    dark = _explorer(page, live_server.url, "dark")
    assert "dark-mode" in dark.locator("html").get_attribute("class")
    assert _background(dark) == "rgb(28, 32, 34)"  # Swagger UI's own dark background

    light = _explorer(page, live_server.url, "light")
    assert not light.locator("html").get_attribute("class")

    fixed = _explorer(page, live_server.url, "dark", fixed="light")
    assert not fixed.locator("html").get_attribute("class")
    assert _background(fixed) != "rgb(28, 32, 34)"


def test_the_reference_follows_a_dark_device_and_a_fixed_scheme(page: Any, live_server: Any) -> None:
    def reference(device: str, fixed: str | None = None) -> Any:
        context = page.context.browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=device)
        if fixed:
            context.add_cookies([{"name": settings.COLOUR_SCHEME_COOKIE_NAME, "value": fixed, "url": live_server.url}])
        tab = context.new_page()
        tab.set_default_timeout(30_000)
        tab.goto(f"{live_server.url}/api/redoc/")
        tab.wait_for_selector("#redoc-container h1")
        return tab

    dark = reference("dark")
    assert dark.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(21, 24, 28)"  # the wiki's dark paper
    assert dark.evaluate("getComputedStyle(document.querySelector('#redoc-container h1')).color") == "rgb(228, 231, 235)"
    for tab in (reference("light"), reference("dark", fixed="light")):
        assert tab.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
        assert not tab.evaluate("document.body.className")


def test_the_reference_loads_nothing_from_elsewhere(page: Any, live_server: Any) -> None:
    """Redoc's menu credits Redocly with a logo from cdn.redoc.ly, which the Content Security Policy refuses: the logo
    is left out instead of an error logged on every visit."""
    refused: list[str] = []
    page.on("console", lambda message: refused.append(message.text) if message.type == "error" else None)
    page.on("requestfailed", lambda request: refused.append(request.url))
    page.goto(f"{live_server.url}/api/redoc/")
    page.wait_for_selector("#redoc-container h1")
    page.wait_for_timeout(500)
    assert refused == []
    assert "API docs by Redocly" in page.locator("#redoc-container").inner_text()
    assert page.evaluate("[...document.images].filter(i => i.src.includes('redoc.ly')).length") == 0
