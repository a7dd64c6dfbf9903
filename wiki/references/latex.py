"""LaTeX in reference fields decoded to Unicode by pylatexenc: accents, ``\\l``, ``\\&``, ``--``, math, braces.

Math in a title is kept: a sub- or superscript that Unicode has (``CuInS{$_2$}`` is CuInS₂, ``OCL$_h$`` OCLₕ) is written
with it, and the exports write it back as math (:func:`scripts_as_math`); math with a script Unicode lacks
(``$_{\\rm eff}$``) is kept as written, TeX and dollars, and written back as such (:data:`KEPT_MATH`).
"""

from __future__ import annotations

import re
from itertools import groupby
from typing import Any

from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, _PushEquationContext, get_default_latex_context_db
from pylatexenc.latexwalker import LatexCharsNode, LatexMathNode, LatexWalker
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
# Boxes and fonts the parser gives an argument and the text has no rule for: their text was dropped with them
# ("\mbox{$0$--$1$} Programs" read as " Programs", "\texttt{SCIP}" as nothing).
_MACROS.add_context_category("text", prepend=True, macros=[
    MacroTextSpec(name, discard=False) for name in ("mbox", "texttt", "textsf", "textup", "textmd")
])
# The characters Unicode has as sub- and superscripts; a star, a dagger or a prime raised is written as it is (A$^*$ is
# A*, as A* search is written in plain text).
SUBSCRIPTS = dict(zip("0123456789+-−=()aehijklmnoprstuvxəβγρφχ",
                      "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓₔᵦᵧᵨᵩᵪ", strict=True))
SUPERSCRIPTS = dict(zip("0123456789+-−=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVWαβγδεθιφχ",
                        "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵅᵝᵞᵟᵋᶿᶥᵠᵡ", strict=True))
_RAISED_AS_WRITTEN = {"*": "*", "∗": "*", "⋆": "*", "†": "†", "‡": "‡", "′": "′", "″": "″"}
_SCRIPT_OF = {**{char: ("_", plain) for plain, char in SUBSCRIPTS.items() if plain != "−"},
              **{char: ("^", plain) for plain, char in SUPERSCRIPTS.items() if plain != "−"}}
_SCRIPT_MARK = re.compile(r"(?<!\\)[_^]")
_SCRIPT_RUN = re.compile(f"[{re.escape(''.join(_SCRIPT_OF))}]+")
# Math kept as written in a field (a script Unicode lacks): dollars around something only TeX writes.
KEPT_MATH = re.compile(r"\$(?=[^$]*[\\_^{])[^$]+\$")


class _Decoder(LatexNodes2Text):  # type: ignore[misc]
    """pylatexenc's text, but inline math's sub- and superscripts in Unicode; math with one Unicode lacks kept as
    written (pylatexenc would print ``_2`` for ``$_2$`` and ``_ eff`` for ``$_{\\rm eff}$``)."""

    def math_node_to_text(self, node: Any) -> str:
        if not node.isNodeType(LatexMathNode) or node.displaytype != "inline" or not _SCRIPT_MARK.search(node.latex_verbatim()):
            return str(super().math_node_to_text(node))
        with _PushEquationContext(self):
            text = self._scripted(node.nodelist)
        return node.latex_verbatim() if text is None else text.strip()

    def _scripted(self, nodes: list[Any]) -> str | None:
        """The text of math ``nodes``, each script in Unicode; ``None`` when one has no Unicode form."""
        pieces: list[str] = []
        pending = ""  # "_" or "^", awaiting what it lowers or raises
        for node in nodes:
            if node.isNodeType(LatexCharsNode):
                for char in node.chars:
                    if pending and not char.isspace():
                        pieces.append(_script(pending, char) or "")
                        if not pieces[-1]:
                            return None
                        pending = ""
                    elif char in "_^":
                        pending = char
                    elif not pending:
                        pieces.append(char)
                continue
            text = str(self.node_to_text(node)) + (getattr(node, "macro_post_space", "") if not pending else "")
            if pending:
                script = _script(pending, text)
                if script is None:
                    return None
                text, pending = script, ""
            pieces.append(text)
        return None if pending else "".join(pieces)


def _script(mark: str, text: str) -> str | None:
    """``text`` lowered (``_``) or raised (``^``) in Unicode; ``None`` when a character of it has no such form."""
    text = "".join(text.split())
    if mark == "^" and text in _RAISED_AS_WRITTEN:
        return _RAISED_AS_WRITTEN[text]
    table = SUBSCRIPTS if mark == "_" else SUPERSCRIPTS
    if not text or any(char not in table for char in text):
        return None
    return "".join(table[char] for char in text)


def scripts_as_math(text: str, escape: Any) -> str:
    """``text`` as LaTeX: its Unicode sub- and superscripts as math (CuInS₂ → ``CuInS$_2$``), math kept as written
    (:data:`KEPT_MATH`) as it is, the rest through ``escape``."""
    pieces, at = [], 0
    for span in KEPT_MATH.finditer(text):
        if _balanced(span.group()):
            pieces += [_with_scripts(text[at:span.start()], escape), span.group()]
            at = span.end()
    return "".join([*pieces, _with_scripts(text[at:], escape)])


def _with_scripts(text: str, escape: Any) -> str:
    pieces, at = [], 0
    for run in _SCRIPT_RUN.finditer(text):
        groups = [(mark, "".join(plain for _, plain in group))
                  for mark, group in groupby((_SCRIPT_OF[char] for char in run.group()), key=lambda pair: pair[0])]
        pieces += [escape(text[at:run.start()]),
                   "$" + "".join(f"{mark}{plain}" if len(plain) == 1 else f"{mark}{{{plain}}}" for mark, plain in groups) + "$"]
        at = run.end()
    return "".join([*pieces, escape(text[at:])])


def _balanced(latex: str) -> bool:
    depth = 0
    for index, char in enumerate(latex):
        if char in "{}" and latex[index - 1 : index] != "\\":
            depth += 1 if char == "{" else -1
            if depth < 0:
                return False
    return depth == 0


_DECODER = _Decoder(latex_context=_MACROS, math_mode="text", strict_latex_spaces=False)
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
