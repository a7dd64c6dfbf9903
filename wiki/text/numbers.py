"""Numbers in messages, written as the reader's language writes them."""

from __future__ import annotations

from django.utils.formats import number_format


def grouped(value: int) -> str:
    """``value`` with its digits grouped as the active language groups them: ``200,000`` in English, ``200000`` in
    Chinese, whose typography sets no commas in a number (Django's ``zh_Hans`` formats: no thousands separator)."""
    return number_format(value, force_grouping=True)
