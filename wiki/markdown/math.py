"""Formulas: ``$$…$$`` blocks, ``\\(…\\)`` and ``$…$`` inline, rendered server-side as MathML.

Formulas are cut out before Markdown runs (so that ``_`` and ``*`` in LaTeX are not read as
emphasis), replaced by tokens that survive sanitising, and put back as MathML afterwards.
"""

from __future__ import annotations

import html
import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from latex2mathml.converter import convert

from wiki.markdown.sanitize import HTML_TAG, sanitize_mathml

DISPLAY_RE = re.compile(r"^[ \t]*\$\$[ \t]*\n?(.+?)\n?[ \t]*\$\$[ \t]*$", re.MULTILINE | re.DOTALL)
# Where a ``$$`` block can end: after the last of these nothing can, and the blocks are looked for before it only (each
# ``$$`` that nothing closes would otherwise have the pattern read the whole rest of the text: 10 s for 4,000 of them).
DISPLAY_END_RE = re.compile(r"\$\$[ \t]*$", re.MULTILINE)
INLINE_RE = re.compile(r"\\\((.+?)\\\)")
INLINE_END = "\\)"
# ``$…$`` as pandoc reads it, so that prices stay text ("$5 and $10", "$5-$10", "US$5/US$6"): the opening $ is
# followed and the closing $ preceded by a non-space, the closing $ is not followed by a digit, both are on one
# line, and neither is escaped (``\$``, which shows a plain $) or half of ``$$``.
DOLLAR_RE = re.compile(r"(?<![\\$])\$(?=[^\s$])([^\n$]*?[^\s\\$])\$(?![\d$])")
ESCAPED_DOLLAR = "\\$"
# ``\eqref{…}`` written in the text rather than in a formula, as MathJax reads it too: a formula of its own.
PROSE_EQREF_RE = re.compile(r"(\\eqref\{[^{}\n]*\})")
# Code, where a $ is the shell's or the language's: fenced blocks and code spans are left as typed.
CODE_RE = re.compile(
    r"^[ \t]{0,3}(?P<fence>`{3,}|~{3,})[^\n]*\n.*?^[ \t]{0,3}(?P=fence)[ \t]*$|(?P<ticks>`+)(?!`).+?(?<!`)(?P=ticks)(?!`)",
    re.MULTILINE | re.DOTALL,
)


@dataclass
class MathStash:
    nonce: str = field(default_factory=lambda: secrets.token_hex(6))
    # each formula's LaTeX, whether it is a display block, and the text it was typed as (delimiters included)
    formulas: list[tuple[str, bool, str]] = field(default_factory=list)

    def token(self, index: int) -> str:
        return f"MATH{self.nonce}X{index}X"

    def cut(self, text: str) -> str:
        def display(match: re.Match[str]) -> str:
            self.formulas.append((match.group(1).strip(), True, match.group(0)))
            return f"\n{self.token(len(self.formulas) - 1)}\n"

        def inline(match: re.Match[str]) -> str:
            self.formulas.append((match.group(1).strip(), False, match.group(0)))
            return self.token(len(self.formulas) - 1)

        def dollars(prose: str) -> str:
            return PROSE_EQREF_RE.sub(inline, DOLLAR_RE.sub(inline, prose)).replace(ESCAPED_DOLLAR, "&#36;")

        return _outside_code(inline_formulas(display_formulas(text, display), inline), dollars)

    def _tokens(self) -> re.Pattern[str]:
        return re.compile(rf"MATH{self.nonce}X(\d+)X")

    def plain(self, text: str) -> str:
        """``text`` with each formula's LaTeX for its token: what a heading's id and its entry in the contents read."""
        return self._put_back(text, 0)

    def typed(self, text: str) -> str:
        """``text`` with each formula as it was typed, delimiters included: what a claim's text reads."""
        return self._put_back(text, 2)

    def _put_back(self, text: str, part: int) -> str:
        """``text`` with each formula's ``part`` (of :attr:`formulas`) for its token."""
        if not self.formulas:
            return text
        return self._tokens().sub(lambda m: str(self.formulas[int(m[1])][part]), text)

    def restore(self, rendered: str) -> str:
        """Sanitised HTML with each formula as MathML where it stands in the text; inside an attribute value or a
        code block (an indented one: code spans and fenced blocks were never cut) the formula is put back as typed."""
        if not self.formulas:
            return rendered
        tokens = self._tokens()
        numbers, references = equation_numbers(self.formulas)

        def formula(index: int) -> str:
            latex, is_display, _ = self.formulas[index]
            number = numbers.get(index)
            if number is None:
                return to_mathml(latex, display=is_display, references=references)
            mathml = to_mathml(_TAG.sub("", latex), display=is_display, references=references)
            return f'{mathml}<span class="math-number">({html.escape(number)})</span>'

        def display(match: re.Match[str]) -> str:
            index = int(match[1])
            numbered = " math-numbered" if index in numbers else ""
            return f'<div class="math-display{numbered}" tabindex="0">{formula(index)}</div>'

        def mathml(match: re.Match[str]) -> str:
            return formula(int(match[1]))

        def as_typed(match: re.Match[str]) -> str:
            return html.escape(self.formulas[int(match[1])][2], quote=True)

        rendered = re.sub(rf"<p>{tokens.pattern}</p>", display, rendered)
        out: list[str] = []
        position, in_code = 0, 0
        for tag in HTML_TAG.finditer(rendered):
            out.append(tokens.sub(as_typed if in_code else mathml, rendered[position:tag.start()]))
            out.append(tokens.sub(as_typed, tag[0]))
            if tag["name"].lower() == "code":
                in_code = max(in_code + (-1 if tag["end"] else 1), 0)
            position = tag.end()
        out.append(tokens.sub(as_typed if in_code else mathml, rendered[position:]))
        return "".join(out)


def display_formulas(text: str, replace: Callable[[re.Match[str]], str]) -> str:
    """``text`` with each ``$$…$$`` block replaced, in time linear in its length."""
    last = max((end.end() for end in DISPLAY_END_RE.finditer(text)), default=None)
    if last is None:
        return text
    return DISPLAY_RE.sub(replace, text[:last]) + text[last:]


def inline_formulas(text: str, replace: Callable[[re.Match[str]], str]) -> str:
    """``text`` with each ``\\(…\\)`` replaced, line by line up to the line's last ``\\)`` (a formula stays on its line),
    in time linear in its length."""
    if INLINE_END not in text:
        return text
    lines = text.split("\n")
    for n, line in enumerate(lines):
        end = line.rfind(INLINE_END)
        if end > 0:
            lines[n] = INLINE_RE.sub(replace, line[:end + 2]) + line[end + 2:]
    return "\n".join(lines)


def _outside_code(text: str, change: Callable[[str], str]) -> str:
    parts: list[str] = []
    position = 0
    for code in CODE_RE.finditer(text):
        parts.extend((change(text[position:code.start()]), code.group(0)))
        position = code.end()
    parts.append(change(text[position:]))
    return "".join(parts)


# amsmath's environments that latex2mathml does not know, written as the ones it knows and lays out the same way:
# without this, ``aligned`` (what MathJax and KaTeX users write inside $$…$$) came out on one line, its & shown.
_ENVIRONMENTS = (
    (re.compile(r"\\begin\{aligned\}|\\begin\{alignedat\}\{\d+\}"), r"\\begin{align*}"),
    (re.compile(r"\\end\{(?:aligned|alignedat)\}"), r"\\end{align*}"),
    (re.compile(r"\\begin\{(?:gathered|gather\*?)\}"), r"\\begin{array}{c}"),
    (re.compile(r"\\end\{(?:gathered|gather\*?)\}"), r"\\end{array}"),
)
_LABEL = re.compile(r"\\label\{([^{}]*)\}")
_TAG = re.compile(r"\\tag\*?\{([^{}]*)\}")
_NO_NUMBER = re.compile(r"\\(?:nonumber|notag)(?![A-Za-z])")
# What a formula copied from a paper's source carries for LaTeX's cross-references, which show nothing where it stands;
# latex2mathml would print them as text ("\label eq:1").
_REFERENCE_MARKS = re.compile(f"{_LABEL.pattern}|{_NO_NUMBER.pattern}")
# Where the text refers to a labelled formula: ``\eqref`` shows its number in parentheses, ``\ref`` without.
_REFERENCE = re.compile(r"\\(eq)?ref\{([^{}]*)\}")
# ``\operatorname{arg\,max}`` and its starred form (limits under it, as \max has them): latex2mathml reads a spacing
# command inside the name as letters of a formula, and the star as a symbol of its own.
_OPERATOR_NAME = re.compile(r"\\operatorname(\*?)\{([^{}]*)\}")
_NAME_SPACES = re.compile(r"\\[,:;> ]|~")


def equation_numbers(formulas: list[tuple[str, bool, str]]) -> tuple[dict[int, str], dict[str, str]]:
    """The number shown beside each numbered display formula (by its index in ``formulas``: LaTeX, display or not, as
    typed) and the number each label stands for. A display formula is numbered when it has a ``\\tag`` (its text)
    or a ``\\label`` and no ``\\nonumber`` (1, 2, … in the order of the text); unlabelled ones are not, as
    ``$$…$$`` is not in LaTeX, so that a page's numbers count only the formulas it refers to."""
    numbers: dict[int, str] = {}
    references: dict[str, str] = {}
    count = 0
    for index, (latex, is_display, _) in enumerate(formulas):
        if not is_display or "\\" not in latex:
            continue
        labels = [label.strip() for label in _LABEL.findall(latex)]
        tag = _TAG.search(latex)
        if tag:
            number = tag[1].strip()
        elif labels and not _NO_NUMBER.search(latex):
            count += 1
            number = str(count)
        else:
            continue
        numbers[index] = number
        for label in labels:
            references.setdefault(label, number)
    return numbers, references


def _known_latex(latex: str, *, display: bool, references: Mapping[str, str]) -> str:
    """``latex`` as latex2mathml reads it: ``aligned``, ``alignedat``, ``gathered`` and ``gather`` written as ``align*``
    and a centred ``array`` (rows broken at ``\\\\``, columns aligned at ``&``), ``\\label``, ``\\nonumber`` and
    ``\\notag`` left out, ``\\eqref`` and ``\\ref`` as the number of the formula ``references`` gives their label (the
    label itself when no formula of the page has it), and an operator's name with its spaces as thin spaces."""
    if "\\" not in latex:
        return latex
    for pattern, known in _ENVIRONMENTS:
        latex = pattern.sub(known, latex)
    latex = _REFERENCE_MARKS.sub("", latex)

    def reference(match: re.Match[str]) -> str:
        label = match[2].strip()
        number = references.get(label, label)
        return f"\\text{{({number})}}" if match[1] else f"\\text{{{number}}}"

    latex = _REFERENCE.sub(reference, latex)

    def operator(match: re.Match[str]) -> str:
        name = _NAME_SPACES.sub("\u2009", match[2]).replace("\\!", "")
        limits = "\\limits" if match[1] and display else ""
        return f"\\operatorname{{{name}}}{limits}"

    return _OPERATOR_NAME.sub(operator, latex)


def to_mathml(latex: str, *, display: bool, references: Mapping[str, str] | None = None) -> str:
    """MathML for ``latex``, its ``\\eqref`` and ``\\ref`` read by ``references`` (label → number); the LaTeX itself,
    escaped, when it cannot be converted (its explanation is added in the reader's language when shown:
    :func:`wiki.markdown.for_reader`)."""
    try:
        mathml = convert(_known_latex(latex, display=display, references=references or {}),
                         display="block" if display else "inline")
    except Exception:  # noqa: BLE001 - latex2mathml raises many kinds of errors on malformed input
        return f'<code class="math-error">{html.escape(latex)}</code>'
    return sanitize_mathml(mathml)
