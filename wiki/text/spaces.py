"""Small text helpers shared by the Markdown extensions, the search index and the importers."""

from __future__ import annotations

import re

_SPACE = re.compile(r"\s+")
_BLANK_LINES = re.compile(r"\n{2,}")
_LINE_SPACE = re.compile(r"[ \t]+")


def collapse_spaces(text: str, *, keep_lines: bool = False) -> str:
    """``text`` with each run of whitespace made one space, trimmed.

    With ``keep_lines``, line breaks survive (runs of them become one) and only spaces and tabs collapse.
    """
    if keep_lines:
        return _LINE_SPACE.sub(" ", _BLANK_LINES.sub("\n", text)).strip()
    return _SPACE.sub(" ", text).strip()
