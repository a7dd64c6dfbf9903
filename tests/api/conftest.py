from __future__ import annotations

import time

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from wiki.api.throttles import WindowCounting
from wiki.roles import Account


@pytest.fixture(autouse=True)
def _fresh_throttle_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rate limits count requests in the cache, in fixed windows: every test starts from zero, its requests all in
    one window whenever it runs (a test straddling the end of a minute would otherwise start a new count midway)."""
    cache.clear()
    start = time.time()
    monkeypatch.setattr(WindowCounting, "timer", lambda self: start - start % 60 + 1)


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def editor_api(editor: Account) -> APIClient:
    client = APIClient()
    client.force_authenticate(editor)
    return client


@pytest.fixture
def reader_api(db: None) -> APIClient:
    from tests.factories import make_reader

    client = APIClient()
    client.force_authenticate(make_reader())
    return client
