"""Fixtures shared by the wiki's tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

import classifier.engine
from tests.factories import make_staff
from wiki.roles import Account


@pytest.fixture
def classified(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The subjects the classifier is asked about, whoever asks."""
    calls: list[str] = []
    real: Callable[..., Any] = classifier.engine.suggest

    def counted(text: str, subject: str | None = None, **kwargs: Any) -> Any:
        calls.append(subject or "")
        return real(text, subject, **kwargs)

    monkeypatch.setattr(classifier.engine, "suggest", counted)
    return calls


@pytest.fixture
def staff(db: None) -> Account:
    """A member of staff, who may delete and restore pages and works."""
    return make_staff()


@pytest.fixture
def staff_client(client: Client, staff: Account) -> Client:
    """The test client, logged in as :func:`staff`."""
    client.force_login(staff)
    return client
