"""Which language a piece of content is in, for ``lang`` attributes."""

from __future__ import annotations

import re

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def has_chinese(text: object) -> bool:
    """Whether the text holds a Chinese character."""
    return _CJK.search(str(text or "")) is not None


def content_lang(text: object) -> str:
    """Chinese when the text holds any Chinese character (English terms inside Chinese text are the wiki's
    normal), English otherwise."""
    return "zh-Hans" if has_chinese(text) else "en"


_WORDS = re.compile(r"(\s+)")


def chinese_runs(text: str) -> list[tuple[str, bool]]:
    """``text`` cut into runs, each with whether it is Chinese: words (cut at spaces) each holding a Chinese
    character, with the spaces between them, make a Chinese run; so ``（来源：Title，pp.3-4）`` is one, as typed."""
    pieces = [piece for piece in _WORDS.split(text) if piece]
    runs: list[tuple[str, bool]] = []
    for index, piece in enumerate(pieces):
        if piece.isspace():
            # spaces belong to a Chinese run only between two of its words
            chinese = 0 < index < len(pieces) - 1 and has_chinese(pieces[index - 1]) and has_chinese(pieces[index + 1])
        else:
            chinese = has_chinese(piece)
        if runs and runs[-1][1] == chinese:
            runs[-1] = (runs[-1][0] + piece, chinese)
        else:
            runs.append((piece, chinese))
    return runs
