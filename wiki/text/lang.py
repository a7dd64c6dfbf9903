"""Which language a piece of content is in, for ``lang`` attributes."""

from __future__ import annotations

import re

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def content_lang(text: object) -> str:
    """Chinese when the text holds any Chinese character (English terms inside Chinese text are the wiki's
    normal), English otherwise."""
    return "zh-Hans" if _CJK.search(str(text or "")) else "en"
