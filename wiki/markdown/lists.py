"""Lists as Chinese writing types them: a list straight under the line before it, with no blank line between, and
list markers typed in full-width characters (``１.``, ``２．``, ``－``, a ``•`` pasted from a web page), read as the
list a reader sees in them rather than as a paragraph."""

from __future__ import annotations

import re

from markdown import Markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

_QUOTE = r"(?:[ ]{0,3}>[ ]?)*"
# A marker with a full-width digit, point or bullet, or followed by an ideographic space, and the text after it.
_WIDE_MARKER = re.compile(
    rf"^(?P<lead>{_QUOTE}[ ]*)(?:(?P<number>[0-9０-９]{{1,9}})(?P<point>[.．])|(?P<bullet>[-*+－＊＋•]))"
    r"(?P<space>[ \t\u3000]+)(?=\S)"
)
_WIDE_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")
# A list item as Python-Markdown reads one, with its quote markers; one that can start a list where a paragraph was.
_ITEM = re.compile(rf"^(?P<quote>{_QUOTE})(?P<indent>[ ]*)(?:[*+-]|(?P<number>\d+)\.)[ ]+\S")
_THEMATIC_BREAK = re.compile(rf"^{_QUOTE}[ ]{{0,3}}([-*_])(?:[ ]*\1){{2,}}[ ]*$")
_QUOTE_PREFIX = re.compile(_QUOTE)
_FOOTNOTE = re.compile(r"^[ ]{0,3}\[\^[^\]]+\]:")


def ascii_marker(line: str) -> str:
    """``line`` with a list marker typed in full-width characters written as Markdown's own: ``１．　第一`` →
    ``1. 第一``, ``－ 甲`` and ``• 甲`` → ``- 甲``. A marker typed in ASCII stays as it is."""
    match = _WIDE_MARKER.match(line)
    if match is None:
        return line
    if match["number"] is not None:
        marker = f"{match['number'].translate(_WIDE_DIGITS)}."
        typed = match["number"] + match["point"]
    else:
        marker = "-" if match["bullet"] in "－•" else match["bullet"].translate(str.maketrans("＊＋", "*+"))
        typed = match["bullet"]
    space = match["space"].replace("\u3000", " ")
    if typed == marker and space == match["space"]:
        return line
    return f"{match['lead']}{marker}{space}{line[match.end():]}"


def _is_item(line: str) -> re.Match[str] | None:
    return None if _THEMATIC_BREAK.match(line) else _ITEM.match(line)


def _open_inline(paragraph: str) -> bool:
    """Whether ``paragraph`` ends inside an HTML comment or a code span, which the next line continues."""
    return paragraph.rfind("<!--") > paragraph.rfind("-->") or paragraph.count("`") % 2 == 1


class ListAfterParagraph(Preprocessor):
    """Python-Markdown starts a list only after a blank line, so ``步骤：`` followed on the next line by ``- 安装``
    read as one paragraph with the hyphens in it. A blank line is put before a list item that follows a paragraph's
    line in the same quote, as CommonMark reads it: any bullet, and a numbered item that starts at 1 (``2024.
    年`` wrapped onto a line of its own stays text). Lines inside a list, an indented block, a footnote, or an HTML
    comment or code span the paragraph opened are left alone. Runs after fenced code and HTML blocks are set aside, so that neither is read for lists."""

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        in_paragraph: bool | None = None  # None between blocks
        paragraph = ""
        depth = 0
        for typed in lines:
            line = ascii_marker(typed)
            quote = _QUOTE_PREFIX.match(line)
            prefix = quote[0] if quote else ""
            rest = line[len(prefix):]
            item = _is_item(line)
            if not rest.strip():
                in_paragraph = None
            elif in_paragraph is None or prefix.count(">") != depth:
                # the first line of a block: a paragraph unless it is a list item, indented or a footnote
                in_paragraph = item is None and not rest.startswith(("    ", "\t")) and not _FOOTNOTE.match(rest)
                paragraph = rest
            elif (in_paragraph and item is not None and len(item["indent"]) < 4 and item["number"] in (None, "1")
                  and not _open_inline(paragraph)):
                out.append(prefix.rstrip())
                in_paragraph = False
            else:
                paragraph += "\n" + rest
            depth = prefix.count(">")
            out.append(line)
        return out


_MARKER = re.compile(r"^(?P<indent>[ ]*)(?P<marker>[*+-]|\d{1,9}\.)(?P<space>[ ]+)\S")
_HEADING = re.compile(r"^[ ]{0,3}#{1,6}(?:[ ]|$)")


class NestedItemIndent(Preprocessor):
    """Python-Markdown nests a list item only when it is indented by four spaces, where CommonMark, GitHub and most
    editors nest one that reaches the text of the item above it: ``- 甲`` then ``  - 乙`` read as two siblings, and
    ``1. 甲`` then ``   - 乙`` as one item whose text ran on with a hyphen in it. Such an item, and a paragraph after a
    blank line that reaches an item's text, are indented by four spaces a level, as Python-Markdown reads them.
    Quoted lists are left as typed."""

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        levels: list[tuple[int, int]] = []  # for each open item: the column its text starts at, the indent it is given
        after_blank = True
        for line in lines:
            if not line.strip():
                after_blank = True
                out.append(line)
                continue
            indent = len(line) - len(line.lstrip(" "))
            item = None if _THEMATIC_BREAK.match(line) else _MARKER.match(line)
            if _HEADING.match(line):
                levels = []
            elif item is not None and (levels or indent < 4):
                while levels and indent < levels[-1][0]:
                    levels.pop()
                given = levels[-1][1] + 4 if levels else indent
                levels.append((indent + len(item["marker"]) + min(len(item["space"]), 4), given))
                line = " " * given + line[indent:]
            elif levels and after_blank:
                while levels and indent < levels[-1][0]:
                    levels.pop()
                if levels:
                    line = " " * (levels[-1][1] + 4 + indent - levels[-1][0]) + line[indent:]
            after_blank = False
            out.append(line)
        return out


class ListExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802
        # After fenced code (25) and raw HTML blocks (20) are set aside, before the block parser.
        md.preprocessors.register(ListAfterParagraph(md), "list_after_paragraph", 15)
        md.preprocessors.register(NestedItemIndent(md), "nested_item_indent", 14)
