"""Label sizes and wrapping for the SVG drawings, estimated without a browser.

Widths are in pixels at the drawings' 12px font and err on the wide side (a CJK character is a
full em, a capital about three quarters of one), so that boxes placed apart here stay apart when a
browser draws them with whatever font it has.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from functools import lru_cache

FONT_PX = 12.0
LINE_PX = 15.0
ELLIPSIS = "…"
_NARROW = set("iljt.,:;'|!()[]/ -·")
_WIDE = set("mwMW@%")


@lru_cache(maxsize=4096)
def char_px(ch: str, font_px: float = FONT_PX) -> float:
    code = ord(ch)
    if code >= 0x2E80 or 0xFF00 <= code <= 0xFFEF:
        em = 1.02
    elif ch in _NARROW:
        em = 0.36
    elif ch in _WIDE:
        em = 0.92
    elif ch.isupper():
        em = 0.74
    elif ch.isdigit():
        em = 0.62
    else:
        em = 0.6
    return em * font_px


@lru_cache(maxsize=8192)
def text_px(text: str, font_px: float = FONT_PX) -> float:
    return sum(char_px(ch, font_px) for ch in text)


def _fits(text: str, max_px: float, font_px: float) -> int:
    """How many leading characters of ``text`` fit in ``max_px``."""
    width = 0.0
    for i, ch in enumerate(text):
        width += char_px(ch, font_px)
        if width > max_px:
            return i
    return len(text)


def _is_cjk(ch: str) -> bool:
    return ord(ch) >= 0x2E80


def _cjk_break(text: str, cut: int, max_px: float, font_px: float) -> int:
    """Where to break CJK text whose first ``cut`` characters fit: at the last space, slash or change of script in the
    second half of them (``harness/`` | ``脚手架``, not ``harness/脚手`` | ``架``); else, when the text fits in two
    lines, near its middle (``参数空间`` | ``进化策略``, not ``参数空间进化策`` | ``略``); else at ``cut``."""
    for i in range(cut, cut // 2, -1):
        if text[i - 1] in " /" or _is_cjk(text[i - 1]) != _is_cjk(text[i]):
            return i
    whole = text_px(text, font_px)
    if whole <= 2 * max_px:
        middle = _fits(text, whole / 2, font_px)
        return max(middle, _fits(text, whole - max_px, font_px) + 1, 1)
    return cut


# Where a name written in one word reads as two ("Flash|REINFORCE", "Skill|Forge", "GPT|4"): a lower-case letter
# before a capital, or a letter beside a digit.
_INNER_WORD_BREAK = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])")


# Chinese line breaking (GB/T 15834, as browsers do it): a line never starts with closing punctuation nor ends with
# opening punctuation; they stay with the text they close or open.
_NO_LINE_START = frozenset("）)]」』】〕》〉”’。，、．：；！？…,.:;!?%％·")
_NO_LINE_END = frozenset("（([「『【〔《〈“‘")


def _is_latin_alnum(ch: str) -> bool:
    return ch.isalnum() and not _is_cjk(ch)


def _punctuation_kept(text: str, brk: int) -> int:
    """``brk`` moved back so that neither line begins with closing punctuation nor ends with opening punctuation, nor
    is a Latin word so freed split (``4515|）。`` becomes ``|4515）。``); ``brk`` itself when no earlier break would do."""
    if not 0 < brk < len(text) or (text[brk] not in _NO_LINE_START and text[brk - 1] not in _NO_LINE_END):
        return brk
    at = brk
    while at > 0 and (text[at] in _NO_LINE_START or text[at - 1] in _NO_LINE_END
                      or (_is_latin_alnum(text[at - 1]) and _is_latin_alnum(text[at]))):
        at -= 1
    return at if text[:at].strip() else brk


def _head(text: str, max_px: float, font_px: float, *, within_words: bool = False) -> tuple[str, str]:
    """The longest head of ``text`` that fits in ``max_px``, broken after a word (Latin) or anywhere in CJK text;
    ``within_words`` (a line of a wrapped label): a word too long for the line is broken where its parts meet
    (``Flash|REINFORCE``), and the next line opens with no closing punctuation (``动作序列，|没有``)."""
    cut = _fits(text, max_px, font_px)
    if cut >= len(text):
        return text, ""
    if cut and text[cut] == " ":
        brk = cut
    elif cut and (_is_cjk(text[cut]) or _is_cjk(text[cut - 1])):
        brk = _cjk_break(text, cut, max_px, font_px)
    else:
        spaces = [i for i in range(cut) if text[i] == " " or (text[i] in "-/" and i + 1 < cut)]
        brk = (spaces[-1] + (0 if text[spaces[-1]] == " " else 1)) if spaces else 0
        if not brk and within_words:
            brk = max((m.start() for m in _INNER_WORD_BREAK.finditer(text, 1, cut + 1)), default=0)
    for i in range(brk, max(0, brk - 4), -1):
        # CJK punctuation stays with the text before it
        if i > 0 and text[i - 1] in "，、：；）" and i <= cut:
            brk = i
            break
    if within_words:
        brk = _punctuation_kept(text, brk)
    return text[:brk].rstrip(), text[brk:].lstrip()


def abbreviate(text: str, max_px: float, font_px: float = FONT_PX) -> str:
    """``text`` cut after a word (or any character in CJK text) so that it and an ellipsis fit in ``max_px``."""
    if text_px(text, font_px) <= max_px:
        return text
    room = max_px - char_px(ELLIPSIS, font_px)
    head, _ = _head(text, room, font_px)
    if not head:  # one long word: cut inside it
        head = text[: _fits(text, room, font_px)]
    return head.rstrip(" ，、：；（-/") + ELLIPSIS


@lru_cache(maxsize=4096)
def wrap(text: str, max_px: float, *, max_lines: int = 2, font_px: float = FONT_PX) -> tuple[str, ...]:
    """``text`` in at most ``max_lines`` lines of ``max_px``, broken between words; the last line is abbreviated when needed."""
    rest = " ".join(text.split())
    lines: list[str] = []
    while rest and len(lines) < max_lines - 1 and text_px(rest, font_px) > max_px:
        head, tail = _head(rest, max_px, font_px, within_words=True)
        if not head:
            break
        lines.append(head)
        rest = tail
    if rest:
        lines.append(abbreviate(rest, max_px, font_px))
    return tuple(lines)


# What may stand between a name that opens a sentence and the rest of it: "GripForge: …", "GripForge，…".
_AFTER_NAME = " :：,，、-–—"
# A name that opens a sentence as the possessor ("Shepherd 的 Tree-GRPO …", "Shepherd's Tree-GRPO …") goes with its
# possessive mark: the rest names the part of the work the claim is about.
_POSSESSIVE = re.compile(r"(?:的(?!确)|['’]s\b) *")


def without_name(text: str, names: Iterable[str]) -> str:
    """``text`` without the name (one of ``names``, case aside) it opens with, so that the claims drawn around a work
    do not each repeat it; ``text`` itself when it opens with none of them, or with one inside a longer word
    (``Grip`` in ``GripForge``), or is nothing but the name. A possessive mark after the name goes with it."""
    for name in sorted(filter(None, names), key=len, reverse=True):
        if text[: len(name)].casefold() != name.casefold():
            continue
        rest = text[len(name):]
        if possessive := _POSSESSIVE.match(rest.lstrip(" ")):
            rest = rest.lstrip(" ")[possessive.end():]
        elif rest[:1].isalnum() and not _is_cjk(rest[0]) and not _is_cjk(name[-1]):
            continue
        if rest := rest.lstrip(_AFTER_NAME):
            return rest
    return text


# Where a clause ends (its start is read after them), or opens (its start is read from them).
_CLAUSE_ENDS = "，。：；、,;:"
_CLAUSE_OPENS = "（(“\""


def _clause_start(text: str, at: int) -> int:
    """Where the clause that ``text[at]`` falls in starts (``actor-critic 依据…`` after ``正例：``); failing one, the
    Latin word (letters, digits) it falls in; ``at`` in CJK text or between words."""
    for i in range(min(at, len(text)) - 1, 0, -1):
        if text[i] in _CLAUSE_ENDS:
            return i + 1
        if text[i] in _CLAUSE_OPENS:
            return i
    while 0 < at < len(text) and text[at - 1].isalnum() and not _is_cjk(text[at - 1]):
        at -= 1
    return at


def _shared_length(a: str, b: str) -> int:
    """How many leading characters ``a`` and ``b`` have in common."""
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


def told_apart(texts: dict[str, str], lines: Callable[[str], tuple[str, ...]]) -> dict[str, str]:
    """``texts`` (by node) with those that would be drawn as the same ``lines`` each shown from the clause where it
    departs from the others, after an ellipsis: five claims opening alike read as five labels, not one five times."""
    alike: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for key, text in texts.items():
        alike[lines(text)].append(key)
    out = dict(texts)
    for keys in alike.values():
        for key in keys if len(keys) > 1 else ():
            text = texts[key]
            shared = max(_shared_length(text, texts[other]) for other in keys if other != key)
            start = _clause_start(text, shared)
            if 0 < start < len(text):
                out[key] = ELLIPSIS + text[start:].lstrip()
    return out
