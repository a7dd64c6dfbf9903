"""Logging a browser tab in, as a person does: the login form, filled and sent."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from tests.factories import PASSWORD


def log_in(tab: Any, base: str, username: str, password: str = PASSWORD) -> None:
    """Log ``tab`` in on the live server at ``base`` through the login form."""
    tab.goto(f"{base}{reverse('login')}")
    tab.fill("input[name=username]", username)
    tab.fill("input[name=password]", password)
    tab.click("main button[type=submit]")
    tab.wait_for_load_state()
    assert reverse("login") not in tab.url
