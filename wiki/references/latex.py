"""LaTeX in reference fields decoded to Unicode by pylatexenc: accents, ``\\l``, ``\\&``, ``--``, math, braces."""

from __future__ import annotations

import re

from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db
from pylatexenc.latexwalker import LatexWalker
from pylatexenc.latexwalker import get_default_latex_context_db as get_default_parsing_context_db
from pylatexenc.macrospec import MacroSpec

from wiki.text.spaces import collapse_spaces, collapse_spaces_in_paragraphs

# pylatexenc reads \textasciicircum as the modifier letter ˆ; in LaTeX it prints the ASCII circumflex. It drops the
# logos, which titles use (The \TeX{}book, The \LaTeX\ Companion, Bib\TeX): they are written as their names.
_MACROS = get_default_latex_context_db().filter_context()
_MACROS.add_context_category("ascii", prepend=True, macros=[
    MacroTextSpec("textasciicircum", "^"),
    MacroTextSpec("TeX", "TeX"), MacroTextSpec("LaTeX", "LaTeX"), MacroTextSpec("LaTeXe", "LaTeX2e"),
    MacroTextSpec("BibTeX", "BibTeX"), MacroTextSpec("XeTeX", "XeTeX"), MacroTextSpec("XeLaTeX", "XeLaTeX"),
    MacroTextSpec("LuaTeX", "LuaTeX"), MacroTextSpec("LuaLaTeX", "LuaLaTeX"), MacroTextSpec("AmS", "AMS"),
    MacroTextSpec("eTeX", "eTeX"), MacroTextSpec("pdfTeX", "pdfTeX"), MacroTextSpec("ConTeXt", "ConTeXt"),
])
_DECODER = LatexNodes2Text(latex_context=_MACROS, math_mode="text", strict_latex_spaces=False)
# The parser does not know \href's two arguments (its text form, "text <url>", expects them): without them the link's
# address ran into its text ("http://x.orgthe site").
_PARSING = get_default_parsing_context_db().filter_context()
_PARSING.add_context_category("links", prepend=True, macros=[MacroSpec("href", "{{")])
# What is left of LaTeX after decoding, if anything: a command, a brace, an escaped character.
LATEX_LEFT = re.compile(r"\\[A-Za-z]+|\\[^\sA-Za-z]|[{}]")


def latex_to_text(value: str, *, paragraphs: bool = False) -> str:
    """``Vuli\\'c`` → ``Vulić``, ``{Tree-{GRPO}}: \\emph{x} \\& y`` → ``Tree-GRPO: x & y``; spaces folded, and with
    ``paragraphs`` (an abstract, a note) the paragraphs a blank line parts kept apart, as LaTeX keeps them."""
    fold = collapse_spaces_in_paragraphs if paragraphs else collapse_spaces
    if "\\" not in value and "{" not in value and "$" not in value and "~" not in value and "--" not in value:
        return fold(value)
    try:
        nodes, _, _ = LatexWalker(value, latex_context=_PARSING, tolerant_parsing=True).get_latex_nodes()
        text = _DECODER.nodelist_to_text(nodes)
    except Exception:  # noqa: BLE001 - pylatexenc is lenient; a malformed value keeps its text without markup
        text = re.sub(r"\\[A-Za-z]+\s*|[{}\\]", "", value)
    return fold(text.replace("\xa0", " "))
