"""Edit summaries the wiki writes itself: stored in English, shown in the reader's language.

An editor's own summary is shown as typed; only these exact sentences are translated.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_noop

IMPORTED = gettext_noop("Imported from file")
REVERTED = gettext_noop("Reverted to revision %(number)s")
_REVERTED = re.compile(r"Reverted to revision (\d+)")


def summary_for_reader(summary: str) -> str:
    """``summary`` in the active language when the wiki wrote it, else as it is."""
    if summary == IMPORTED:
        return gettext(IMPORTED)
    if reverted := _REVERTED.fullmatch(summary):
        return gettext(REVERTED) % {"number": reverted[1]}
    return summary
