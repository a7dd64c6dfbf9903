"""Lists written into sentences in the reader's language: “A, B” in English, “A、B” in Chinese."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import pgettext


def joined(items: Iterable[str]) -> str:
    """``items`` apart by the active language's list separator."""
    return pgettext("list separator", ", ").join(items)
