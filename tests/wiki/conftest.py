"""Fixtures shared by the wiki's tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import classifier.engine


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
