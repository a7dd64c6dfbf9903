"""Raw HTML in a page's text: the tags the sanitiser keeps whole stay markup, any other is shown as typed."""

from __future__ import annotations

import re

from markdown import Markdown
from markdown.extensions import Extension
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor

from wiki.markdown.sanitize import escape_unlisted_html


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


# A start tag opening a line (as a raw HTML block does), with its name; and the whole tag, to tell <div/> apart.
_BLOCK_START = re.compile(r"^ {0,3}(<([a-zA-Z][a-zA-Z0-9-]*)(?:[^>\"']|\"[^\"]*\"|'[^']*')*>)", re.MULTILINE)
_VOID = {"hr", "br", "img", "input", "col", "area", "base", "link", "meta", "source", "track", "wbr", "embed"}


class UnclosedHtmlBlock(Preprocessor):
    """A block-level start tag that nothing after it closes would make Markdown read the rest of the page as raw HTML:
    unrendered, its key points no claims. Its ``<`` is shown as typed instead, and the page goes on as Markdown.
    Runs after fenced code is set aside, so that a tag inside a code block is never touched."""

    def run(self, lines: list[str]) -> list[str]:
        text = "\n".join(lines)
        found = list(_BLOCK_START.finditer(text))
        if not found:
            return lines
        out = text
        for match in reversed(found):
            name = match[2].lower()
            if name not in self.md.block_level_elements or name in _VOID or match[1].endswith("/>"):
                continue
            rest = text[match.end():]
            opens = len(re.findall(rf"<{name}(?=[\s/>])", rest, re.IGNORECASE))
            closes = len(re.findall(rf"</{name}\s*>", rest, re.IGNORECASE))
            if closes <= opens:
                start = match.start(1)
                out = f"{out[:start]}&lt;{out[start + 1:]}"
        return out.split("\n")


class RawHtmlExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802
        # After fenced code is set aside (25), before Markdown reads raw HTML blocks (20).
        md.preprocessors.register(UnclosedHtmlBlock(md), "unclosed_html_block", 22)
        # Before Markdown's own "raw_html" (30) puts the pieces back.
        md.postprocessors.register(EscapeUnlistedHtml(md), "escape_unlisted_html", 35)
