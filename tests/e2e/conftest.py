"""Headless Chromium (Debian's) driving the app on pytest-django's live server."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connections

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run",
]


@pytest.fixture
def page(transactional_db: None, seed: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A browser tab; Playwright runs per test so that its event loop is gone before the database is flushed."""
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in the test thread; the ORM calls made there are still synchronous.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        context = browser.new_context(viewport={"width": 1280, "height": 1000})
        tab = context.new_page()
        tab.set_default_timeout(15_000)
        try:
            yield tab
        finally:
            browser.close()
            # While Playwright's event loop runs in this thread, Django keeps database connections per async
            # context: the ORM calls of the test got a connection of their own, which would otherwise stay
            # open and keep the test database from being dropped at the end of the run.
            connections.close_all()
