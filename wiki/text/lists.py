"""Lists written into sentences in the reader's language: “A, B” in English, “A、B” in Chinese; and read back as
either writes them."""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.utils.translation import pgettext


def joined(items: Iterable[str]) -> str:
    """``items`` apart by the active language's list separator."""
    return pgettext("list separator", ", ").join(items)


# A comma of either width, or the enumeration comma 、, with the spacing around it.
LIST_SEPARATOR = re.compile(r"\s*[,，、]\s*")


def split_list(text: str) -> list[str]:
    """The items of a list typed in either language (``SkillForge, WebArena``, ``通义深度研究，SkillForge``,
    ``SkillForge、WebArena``), without empty ones."""
    return [item for item in LIST_SEPARATOR.split(text.strip()) if item]
