"""Raw HTML in a page's text: the tags the sanitiser keeps whole stay markup, any other is shown as typed."""

from __future__ import annotations

import re

from markdown import Markdown
from markdown.extensions import Extension
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor

from wiki.markdown.sanitize import HTML_TAG, MAX_TAG, escape_unlisted_html


class EscapeUnlistedHtml(Postprocessor):
    """Rewrites what Markdown set aside as raw HTML (blocks and inline tags) before it is put back in the page.

    Code is never rewritten: code spans and indented blocks are not raw HTML, and a fenced block's code is
    escaped already when it is set aside. The pieces are read in order, so that the end tag of an escaped start
    tag in another piece is escaped too."""

    def run(self, text: str) -> str:
        escaped: dict[str, int] = {}
        stash = self.md.htmlStash.rawHtmlBlocks
        for index, raw in enumerate(stash):
            if isinstance(raw, str):
                stash[index] = escape_unlisted_html(raw, escaped=escaped)
        return text


# Where a line opens with a tag, as a raw HTML block does; and every start or end tag's name, to count them.
_LINE_START = re.compile(r"^ {0,3}(?=<[A-Za-z])", re.MULTILINE)
_TAG_NAME = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)(?=[\s/>])")
_VOID = {"hr", "br", "img", "input", "col", "area", "base", "link", "meta", "source", "track", "wbr", "embed"}


class UnclosedHtmlBlock(Preprocessor):
    """A block-level start tag that nothing after it closes would make Markdown read the rest of the page as raw HTML:
    unrendered, its key points no claims. Its ``<`` is shown as typed instead, and the page goes on as Markdown.
    Runs after fenced code is set aside, so that a tag inside a code block is never touched."""

    def run(self, lines: list[str]) -> list[str]:
        text = "\n".join(lines)
        starts = set()
        for line in _LINE_START.finditer(text):
            tag = HTML_TAG.match(text, line.end(), line.end() + MAX_TAG)
            name = tag["name"].lower() if tag else ""
            if tag and not tag["end"] and not tag[0].endswith("/>") and name in self.md.block_level_elements and name not in _VOID:
                starts.add(line.end())
        if not starts:
            return lines
        # From the end: a start tag is closed when more end tags of its name follow it than start tags do.
        opened: dict[str, int] = {}
        closed: dict[str, int] = {}
        unclosed = []
        for tag in reversed(list(_TAG_NAME.finditer(text))):
            name = tag[2].lower()
            if tag[1]:
                closed[name] = closed.get(name, 0) + 1
                continue
            if tag.start() in starts and closed.get(name, 0) <= opened.get(name, 0):
                unclosed.append(tag.start())
            opened[name] = opened.get(name, 0) + 1
        for start in unclosed:  # from the end, so that each earlier position stands
            text = f"{text[:start]}&lt;{text[start + 1:]}"
        return text.split("\n")


class RawHtmlExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802
        # After fenced code is set aside (25), before Markdown reads raw HTML blocks (20).
        md.preprocessors.register(UnclosedHtmlBlock(md), "unclosed_html_block", 22)
        # Before Markdown's own "raw_html" (30) puts the pieces back.
        md.postprocessors.register(EscapeUnlistedHtml(md), "escape_unlisted_html", 35)
