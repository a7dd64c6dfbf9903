"""Tables as GitHub writes them: a pipe in a cell's code is typed ``\\|`` so that it does not end the cell, and is
shown as ``|``."""

from __future__ import annotations

import xml.etree.ElementTree as etree

from markdown import Markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor
from markdown.util import AtomicString


class PipeInTableCode(Treeprocessor):
    """Python-Markdown keeps the backslash of ``\\|`` in a cell's code span (``a \\| b`` read so), where GitHub, whose
    tables the wiki's follow, shows ``a | b``; outside code the escape is already read as a pipe."""

    def run(self, root: etree.Element) -> None:
        for cell in (element for element in root.iter() if element.tag in ("td", "th")):
            for code in cell.iter("code"):
                if code.text and "\\|" in code.text:
                    code.text = AtomicString(code.text.replace("\\|", "|"))


class TableExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802
        # After the inline pass (20) has made the code spans.
        md.treeprocessors.register(PipeInTableCode(md), "pipe_in_table_code", 19)
