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


_PARAGRAPH_BREAK = re.compile(r"\n[ \t\r\f\v]*\n\s*")


def collapse_spaces_in_paragraphs(text: str) -> str:
    """``text`` with its paragraphs (parted by a blank line, as LaTeX and Markdown part them) kept apart by one blank
    line, and the whitespace within each, a single line break included, made one space: an abstract's shape without
    the line wrapping of the file it came in."""
    paragraphs = (collapse_spaces(paragraph) for paragraph in _PARAGRAPH_BREAK.split(text.replace("\r\n", "\n")))
    return "\n\n".join(paragraph for paragraph in paragraphs if paragraph)


# Whitespace after a full-width mark (and any tags that close or open around it), as a template's line breaks leave
# between two translated sentences: Chinese sets no space there, English sentences end with a half-width mark.
_GAP_AFTER_FULL_WIDTH = re.compile(r"(?<=[\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65])((?:\s*<[^<>]+>)*)\s+")


def prose(html: str) -> str:
    """``html`` (a run of inline text and tags) with each run of whitespace made one space, and none left after a
    full-width punctuation mark: ``句。\n  <span>下一句`` reads ``句。<span>下一句``."""
    return _GAP_AFTER_FULL_WIDTH.sub(r"\1", collapse_spaces(html))


_SENTENCE_ENDS = "。！？；.!?;"
ELLIPSIS = "…"


def _last_break(head: str, text: str, mark: str) -> int:
    """Where ``mark`` last ends a sentence or clause in ``head`` (a part of ``text``), or -1. An ASCII mark ends one
    only before a space or the end: not the point of ``0.87`` or ``v2.6``."""
    index = head.rfind(mark)
    while index >= 0 and mark.isascii() and mark != " " and index + 1 < len(text) and not text[index + 1].isspace():
        index = head.rfind(mark, 0, index)
    return index


def excerpt(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters at a sentence end, or else after a word, with an ellipsis.

    Chinese has no spaces between words: without a sentence end or space in the second half of the
    limit, the cut falls after the last CJK punctuation mark or, failing that, at the limit.
    """
    text = collapse_spaces(text)
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    floor = len(head) // 2
    for marks in (_SENTENCE_ENDS, "，、：） "):
        cut = max(_last_break(head, text, mark) for mark in marks)
        if cut >= floor:
            return head[: cut + 1].rstrip(" ，、：") + ELLIPSIS
    # never inside a Latin word
    if head[-1].isascii() and head[-1].isalnum() and text[len(head)].isascii() and text[len(head)].isalnum():
        space = head.rfind(" ")
        if space >= floor:
            head = head[:space]
    return head.rstrip() + ELLIPSIS
