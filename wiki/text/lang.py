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
