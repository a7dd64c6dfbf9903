"""A page's Markdown as the text a reader sees, for search snippets and the words indexed with them.

Markup goes and what it marks stays: ``**bold**`` reads ``bold``, ``[[target|label]]`` its label, ``[text](url)`` its
text, an image its alternative text, a formula its LaTeX, a footnote reference (``[^1]``) nothing and a footnote its
text. Headings, list and quote markers, table rules, code fences and the tags the sanitiser keeps are dropped, entities
read as their characters; what Markdown shows as typed stays (a backslash-escaped ``\\*``, ``snake_case``, a ``*``
between spaces, a tag the page shows as text). Citations (``（来源：Title，p.3）``) stay: the page shows them as
written, and a search for a work's title finds the claims citing it by them. No space is put where markup was, so
Chinese text reads on as on the page.
"""

from __future__ import annotations

import html
import re

from wiki.markdown.math import DOLLAR_RE, display_formulas, inline_formulas
from wiki.markdown.sanitize import ALLOWED_TAGS, HTML_TAG
from wiki.markdown.wikilinks import WIKILINK_RE
from wiki.text.spaces import collapse_spaces

# Markdown's backslash escapes, each set aside as a private-use character until the markup is gone.
_ESCAPE_RE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|~<>$])")
_ESCAPED_BASE = 0xE000
_RESTORE = {_ESCAPED_BASE + ord(char): char for char in "\\`*_{}[]()#+-.!|~<>$"}

_WIKILINK_RE = re.compile(WIKILINK_RE)
_FENCE_RE = re.compile(r"(?m)^[ \t]{0,3}(?:`{3,}|~{3,})[^\n]*$")
_IMAGE_RE = re.compile(r"!\[([^\]\n]*)\]\([^)\n]*\)")
_LINK_RE = re.compile(r"\[([^\]\n]+)\](?:\([^)\n]*\)|\[[^\]\n]*\])")
_LINK_DEFINITION_RE = re.compile(r"(?m)^[ \t]{0,3}\[(?!\^)[^\]\n]+\]:[ \t]*\S+.*$")
_FOOTNOTE_RE = re.compile(r"(?m)^[ \t]{0,3}\[\^[^\]\n]+\]:[ \t]*|\[\^[^\]\n]+\]")
_AUTOLINK_RE = re.compile(r"<((?:https?|mailto|ftp):[^\s<>]+)>")
_COMMENT_RE = re.compile(r"<!--.*?-->", re.DOTALL)
_TOC_RE = re.compile(r"(?m)^[ \t]*\[TOC\][ \t]*$")
# Block markers at the start of a line: heading, quote, list item; a rule or a table's alignment row is a line alone.
_BLOCK_RE = re.compile(r"(?m)^[ \t]*(?:(?:>|[-*+][ \t]|\d{1,9}[.)][ \t])[ \t]*)*(?:#{1,6}[ \t]+)?")
_RULE_RE = re.compile(
    r"(?m)^[ \t]*(?:(?:[-*_][ \t]*){3,}|={3,}|(?=[^\n]*\|)\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?)[ \t]*$"
)
_CELL_RE = re.compile(r"[ \t]*\|[ \t]*")
_CLOSING_HASHES_RE = re.compile(r"(?m)[ \t]+#+[ \t]*$")
# Emphasis: asterisks touching a word on one side (``a * b`` stays), underscores at a word's edge (``snake_case``
# stays), strike-through tildes and code ticks.
_EMPHASIS_RE = re.compile(r"\*{1,3}(?=\S)|(?<=\S)\*{1,3}|(?<!\w)_{1,3}(?=\S)|(?<=\S)_{1,3}(?!\w)|~~|`+")


def _formula(match: re.Match[str]) -> str:
    return match.group(1)


def _tag(match: re.Match[str]) -> str:
    """A tag the page renders as markup goes; any other is shown as typed, so it stays."""
    return "" if match.group("name").lower() in ALLOWED_TAGS else match.group(0)


def plain_text(markdown: str) -> str:
    """``markdown`` as the text a reader sees, lines kept, spaces collapsed."""
    text = _ESCAPE_RE.sub(lambda m: chr(_ESCAPED_BASE + ord(m.group(1))), markdown)
    text = _COMMENT_RE.sub("", text)
    text = _FENCE_RE.sub("", text)
    text = display_formulas(text, _formula)
    text = inline_formulas(text, _formula)
    text = DOLLAR_RE.sub(_formula, text)
    text = _WIKILINK_RE.sub(lambda m: m.group(2) or m.group(1), text)
    text = _LINK_DEFINITION_RE.sub("", text)
    text = _FOOTNOTE_RE.sub("", text)
    text = _IMAGE_RE.sub(r"\1", text)
    text = _LINK_RE.sub(r"\1", text)
    text = _AUTOLINK_RE.sub(r"\1", text)
    text = HTML_TAG.sub(_tag, text)
    text = _TOC_RE.sub("", text)
    text = _RULE_RE.sub("", text)
    text = _BLOCK_RE.sub("", text)
    text = _CLOSING_HASHES_RE.sub("", text)
    text = _EMPHASIS_RE.sub("", text)
    text = _CELL_RE.sub(" ", text)
    text = html.unescape(text).translate(_RESTORE)
    return "\n".join(line.strip() for line in collapse_spaces(text, keep_lines=True).split("\n"))
