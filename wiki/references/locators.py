"""Locators of citations: ``p.3``, ``pp.3-4, 7``, ``§3.1 / §5``, ``§2.4、§3``, ``Table 2``, ``Fig. 3``, ``Appendix B``,
and as Chinese writes them: ``第3页``, ``表 2``, ``图3``, ``附录 B``."""

from __future__ import annotations

import re

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
