"""Logging a browser tab in, as a person does: the login form, filled and sent."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from tests.factories import PASSWORD, make_editor


def log_in(tab: Any, base: str, username: str, password: str = PASSWORD) -> None:
    """Log ``tab`` in on the live server at ``base`` through the login form."""
    tab.goto(f"{base}{reverse('login')}")
    tab.fill("input[name=username]", username)
    tab.fill("input[name=password]", password)
    tab.click("main button[type=submit]")
    tab.wait_for_load_state()
    assert reverse("login") not in tab.url


def two_editors_at(tab: Any, base: str, url: str) -> Any:
    """Editors "first" (in ``tab``) and "second" (in a tab of another browser context, which it returns), each
    logged in and with ``url`` open: two people about to edit the same thing."""
    make_editor("first")
    make_editor("second")
    other = tab.context.browser.new_context().new_page()
    log_in(tab, base, "first")
    log_in(other, base, "second")
    tab.goto(url)
    other.goto(url)
    return other
