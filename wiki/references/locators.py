"""Locators of citations: ``p.3``, ``pp.3-4, 7``, ``§3.1 / §5``, ``§2.4、§3``, ``Table 2``, ``Fig. 3``, ``Appendix B``,
and as Chinese writes them: ``第3页``, ``表 2``, ``图3``, ``附录 B``."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

_PAGES = r"\d+(?:\s?[-–—]\s?\d+)?"
_UNIT = rf"""
    (?:pp?\.\s?{_PAGES}(?:\s?,\s?{_PAGES})*)                            # p.3, pp.3-4, pp.3-4, 7
  | (?:§\s?\d+(?:\.\d+)*(?:\s?[-–—]\s?§?\s?\d+(?:\.\d+)*)?)         # §3.1, §3-§4
  | (?:(?i:Table|Tab\.|Fig\.|Figure|Appendix|App\.|Sec\.|Section|Eq\.|Equation|Chapter|Ch\.|Algorithm|Alg\.|Listing|Line|Lines|Slide)
       \s?(?:[A-Za-z](?:\.?\d+(?:\.\d+)*)?|\d+(?:\.\d+)*)[a-z]?(?:\s?[-–—]\s?[A-Z]?\d+(?:\.\d+)*)?)  # Table 2, Appendix B.1, Fig. 3a
  | (?:第\s?\d+(?:\s?[-–—]\s?\d+)?\s?[页章节])                        # 第3页
  | (?:(?:表|图|附录|算法|公式|式|代码|章节)
       \s?(?:[A-Za-z](?:\.?\d+(?:\.\d+)*)?|\d+(?:\.\d+)*)[a-z]?(?:\s?[-–—]\s?[A-Z]?\d+(?:\.\d+)*)?)  # 表 2, 图3a, 附录 B.1
"""
_SEPARATOR = r"\s*(?:[、,，;；/]|\band\b|&)\s*"
LOCATOR_RE = re.compile(rf"^\s*(?:{_UNIT})(?:{_SEPARATOR}(?:{_UNIT}))*\s*$", re.VERBOSE)


def is_valid_locator(text: str) -> bool:
    """True when ``text`` is one or more locator units joined by 、 / , ; or "and"."""
    return bool(text.strip()) and LOCATOR_RE.match(text) is not None


# A locator as running text gives it (a claim's citation, ``（来源：Title，pp. 3–4）``): whole, not the start or the end
# of a longer word or number (``p.1`` is not in ``p.12``).
_IN_TEXT_RE = re.compile(rf"(?<![\w.])(?:{_UNIT})(?:{_SEPARATOR}(?:{_UNIT}))*(?!\w)", re.VERBOSE)


def locators_in(text: str) -> list[str]:
    """The locators ``text`` gives, in order, as typed but for width and runs of spaces."""
    folded = " ".join(unicodedata.normalize("NFKC", text).split())
    return [found.group() for found in _IN_TEXT_RE.finditer(folded)]


# What each unit's label says, whichever way it is written: ``p.``/``pp.``/``第…页`` are pages, ``Fig.``/``Figure``/``图``
# a figure… (the locator's grammar above accepts these; anything else is compared as written).
_LABELS = (
    (r"pp?\.", "p."),
    (r"§|sec\.|section", "§"),
    (r"table|tab\.|表", "table"),
    (r"figure|fig\.|图", "fig."),
    (r"appendix|app\.|附录", "app."),
    (r"equation|eq\.|公式|式", "eq."),
    (r"chapter|ch\.", "ch."),
    (r"algorithm|alg\.|算法", "alg."),
    (r"listing|代码", "listing"),
    (r"lines?", "line"),
    (r"slide", "slide"),
    (r"章节", "章节"),
)
_LABEL_RE = re.compile("|".join(f"(?P<l{i}>{pattern})" for i, (pattern, _) in enumerate(_LABELS)))
_CHINESE_UNIT_RE = re.compile(r"第\s*(\d+(?:\s*-\s*\d+)?)\s*([页章节])")
_CHINESE_UNIT_LABELS = {"页": "p.", "章": "ch.", "节": "§"}
_KEY_SEPARATOR_RE = re.compile(r"\s*(?:[、,;/&]|\band\b)\s*")
_DASHES = str.maketrans({"–": "-", "—": "-"})


def locator_key(locator: str) -> str:
    """``locator`` as compared with another: what it points at, not how it is typed. ``pp.3-4``, ``pp. 3–4``,
    ``p. 3–4``, ``第3-4页`` and ``第 3–4 页`` are one key, as are ``§3.1`` and ``Sec. 3.1``, ``Table 2`` and ``表 2``, and
    ``pp.3-4, 7`` and ``p.3-4; p.7``; width, case and spacing aside. The locator as typed is what the wiki shows."""
    text = unicodedata.normalize("NFKC", locator).casefold().translate(_DASHES)
    text = _CHINESE_UNIT_RE.sub(lambda m: f"{_CHINESE_UNIT_LABELS[m.group(2)]}{m.group(1)}", text)
    parts: list[str] = []
    label = ""
    for part in _KEY_SEPARATOR_RE.split(text.strip()):
        head = _LABEL_RE.match(part)
        if head is not None and head.lastgroup is not None:
            label = _LABELS[int(head.lastgroup[1:])][1]
            part = part[head.end() :]
        # a range's end may repeat the label (``§3-§4``): it says no more than ``§3-4``
        rest = "".join(part.split()).replace("-§", "-")
        parts.append(label + rest)
    return ",".join(parts)


def distinct_locators(locators: Iterable[str]) -> list[str]:
    """Each locator once (by :func:`locator_key`), as first typed, in order; empty ones left out."""
    seen: dict[str, str] = {}
    for locator in locators:
        if locator:
            seen.setdefault(locator_key(locator), locator)
    return list(seen.values())
