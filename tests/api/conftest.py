from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from wiki.roles import Account


@pytest.fixture(autouse=True)
def _fresh_throttle_counts() -> None:
    """The anonymous rate limit counts requests in the cache; every test starts from zero."""
    cache.clear()


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
