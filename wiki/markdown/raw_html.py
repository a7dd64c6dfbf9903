"""Raw HTML in a page's text: the tags the sanitiser keeps whole stay markup, any other is shown as typed."""

from __future__ import annotations

from markdown import Markdown
from markdown.extensions import Extension
from markdown.postprocessors import Postprocessor

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


class RawHtmlExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802
        # Before Markdown's own "raw_html" (30) puts the pieces back.
        md.postprocessors.register(EscapeUnlistedHtml(md), "escape_unlisted_html", 35)
