"""Finding the wiki's citations in text: ``（来源：Title，pp.3-4）``, ``（来源：A、B）``, ``（综合：Title）``, several
works each at its own locator, ``（来源：A，p.3；B，§2）``, a title holding the citation's own separators in quotes,
``（来源：“规划、记忆与工具”，p.3）``, or a pair of its brackets, ``（来源：“Agentic RL（智能体强化学习）”）``, and a locator
after an ASCII comma, ``（来源：Agents, Tools, and RL, pp.3-4）``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext

from wiki.references.locators import is_valid_locator

KIND_BY_WORD = {"来源": "cited", "综合": "synthesised"}

# The marks a title may be quoted in, which hold the citation's own separators (and a pair of its brackets) as text.
_QUOTES = (("“", "”"), ('"', '"'), ("「", "」"), ("『", "』"), ("《", "》"))
# A quoted title holding a pair of full-width brackets, ``“Agentic RL（智能体强化学习）”``: one level, balanced, so that
# a citation never runs on into the next bracket of the sentence.
_QUOTED_WITH_BRACKETS = "|".join(
    rf"{re.escape(opening)}(?:[^{re.escape(opening + closing)}（）\n]|（[^{re.escape(opening + closing)}（）\n]*）)*"
    rf"{re.escape(closing)}" for opening, closing in _QUOTES)
# The body runs to the first closing bracket outside quotes; read possessively, as a quoted title either holds its
# brackets or is read as text, and trying both at each quote would take time exponential in the quotes of a line.
CITATION_RE = re.compile(rf"（(来源|综合)：((?:{_QUOTED_WITH_BRACKETS}|[^（）\n])*+)）")
# Anything that looks like the start of a citation, in the wiki's form or a near miss (its words in Traditional
# characters too: a sentence converted to them would otherwise lose its citation unseen).
CITATION_START_RE = re.compile(
    r"[（(]\s*(来源|综合|來源|綜合|出处|出處|参见|參見|引用|引自|source|sources|cf\.)\s*[:：]", re.IGNORECASE
)


# Text the reader sees as code or never sees at all: a citation there is an example, not a citation.
_NOT_PROSE_RE = re.compile(
    r"^[ \t]*(?P<fence>`{3,}|~{3,})[^\n]*\n.*?(?:^[ \t]*(?P=fence)[ \t]*$|\Z)"
    r"|<!--.*?(?:-->|\Z)"
    r"|(?P<ticks>`+)(?!`).+?(?<!`)(?P=ticks)(?!`)",
    re.MULTILINE | re.DOTALL,
)


def blank_non_prose(text: str) -> str:
    """``text`` with code and HTML comments blanked out; offsets and line numbers unchanged."""
    return _NOT_PROSE_RE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


@dataclass(frozen=True)
class CitationRef:
    kind: str
    titles: tuple[str, ...]
    locator: str
    start: int
    end: int


@dataclass(frozen=True)
class CitationProblem:
    message: str
    excerpt: str
    line: int


# What a source's title and a citation's locator can hold (Source.title, Citation.locator).
MAX_TITLE_LENGTH = 500
MAX_LOCATOR_LENGTH = 200


# One work or several (、) at one locator: a part of a citation, which ； separates from the next.
CitationGroup = tuple[tuple[str, ...], str]

# A title in quotes or title marks holds the citation's separators as text (``“Planning、Memory，and Tools”``,
# ``《规划、记忆与工具》``); the marks around a whole title are no part of it, as a bibliography reads them.
_QUOTED_RE = re.compile("|".join(f"{re.escape(opening)}[^{re.escape(opening + closing)}]*{re.escape(closing)}"
                                  for opening, closing in _QUOTES))
_WHOLLY_QUOTED_RE = re.compile(rf"^(?:{_QUOTED_RE.pattern})$")
# What a separator inside quotes stands as while the citation is parted (private-use characters no page holds).
_HIDDEN = {"、": "\ue011", "，": "\ue012", "；": "\ue013", ",": "\ue014"}
_SHOWN = str.maketrans({hidden: shown for shown, hidden in _HIDDEN.items()})
_HIDE = str.maketrans(_HIDDEN)
# An ASCII comma before what reads as a locator, as English writes it: ``Agents, Tools, and RL, pp.3-4``.
_ASCII_COMMA_RE = re.compile(r"\s*,\s*")


def parse_citation_body(kind_word: str, body: str) -> list[CitationGroup] | str:
    """The parts of one citation body (titles and their locator; ``A，p.3；B，§2`` is two), or a message saying why it
    cannot be read."""
    body = body.strip()
    if not body:
        return "the citation names no source"
    body = _QUOTED_RE.sub(lambda m: m.group(0).translate(_HIDE), body)
    groups = []
    for part in body.split("；"):
        parsed = _parse_group(part.strip())
        if isinstance(parsed, str):
            return parsed
        groups.append(parsed)
    return groups


def _parse_group(body: str) -> CitationGroup | str:
    if not body:
        return gettext("an empty part between “；” separators")
    locator = ""
    head = body
    if "，" in body:
        head, tail = body.rsplit("，", 1)
        tail = tail.strip().translate(_SHOWN)
        if not is_valid_locator(tail):
            return gettext("“%(locator)s” is not a locator (expected p.3, pp.3-4, §3.1, Table 2, Fig. 3, Appendix B…)") % {"locator": tail}
        if len(tail) > MAX_LOCATOR_LENGTH:
            return gettext("the locator is longer than %(limit)s characters: cite the parts in separate citations") % {"limit": MAX_LOCATOR_LENGTH}
        locator = tail
    elif (after_comma := locator_after_ascii_comma(body)) is not None:
        head, locator = after_comma
    titles = tuple(_unquoted(title.strip().translate(_SHOWN)) for title in head.split("、"))
    if any(not title for title in titles):
        return gettext("an empty source title between separators")
    if any(len(title) > MAX_TITLE_LENGTH for title in titles):
        return gettext("a source title is longer than %(limit)s characters") % {"limit": MAX_TITLE_LENGTH}
    return titles, locator


def find_citations(text: str) -> tuple[list[CitationRef], list[CitationProblem]]:
    """Every well-formed citation in ``text`` (one for each part of a citation ``；`` divides), and a problem for every
    citation-like text that is not."""
    refs: list[CitationRef] = []
    problems: list[CitationProblem] = []
    covered: set[int] = set()
    text = blank_non_prose(text)
    for match in CITATION_RE.finditer(text):
        covered.add(match.start())
        parsed = parse_citation_body(match.group(1), match.group(2))
        if isinstance(parsed, str):
            problems.append(_problem(text, match.start(), match.end(), parsed))
            continue
        refs += [CitationRef(KIND_BY_WORD[match.group(1)], titles, locator, match.start(), match.end())
                 for titles, locator in parsed]
    for match in CITATION_START_RE.finditer(text):
        if match.start() in covered:
            continue
        opener = match.group(0)
        rest = text[match.end() :]
        closing = min((i for i in (rest.find("）"), rest.find(")")) if i >= 0), default=-1)
        newline = rest.find("\n")
        bracket = rest.find("（")
        if closing < 0 or (0 <= newline < closing):
            message = gettext("unbalanced bracket: the citation is never closed")
        elif 0 <= bracket < closing and match.group(1) in KIND_BY_WORD:
            message = gettext("a title holding brackets is written in quotes: （来源：“Title（…）”，p.3）")
        else:
            message = gettext("unknown citation form “%(form)s”: write （来源：Title，locator） or （综合：Title）") % {"form": opener.strip()}
        end = match.end() + (closing + 1 if closing >= 0 else min(len(rest), 60))
        problems.append(_problem(text, match.start(), end, message))
    problems.sort(key=lambda p: p.line)
    return refs, problems


def _problem(text: str, start: int, end: int, message: str) -> CitationProblem:
    excerpt = text[start : min(end, start + 120)]
    return CitationProblem(message=message, excerpt=excerpt, line=text.count("\n", 0, start) + 1)


def locator_after_ascii_comma(body: str) -> tuple[str, str] | None:
    """(title, locator) when ``body`` ends in an ASCII comma and a locator (the first comma after which the rest is
    one: ``A, B, pp.3-4, 7`` is ``A, B`` at ``pp.3-4, 7``), else None."""
    for comma in _ASCII_COMMA_RE.finditer(body):
        head, tail = body[: comma.start()], body[comma.end() :]
        if head.strip() and is_valid_locator(tail) and len(tail) <= MAX_LOCATOR_LENGTH:
            return head, tail.strip()
    return None


def _unquoted(title: str) -> str:
    return title[1:-1].strip() or title if _WHOLLY_QUOTED_RE.match(title) else title


def _reads_back(written: str, title: str) -> bool:
    found = CITATION_RE.fullmatch(f"（来源：{written}）")
    return found is not None and parse_citation_body(found.group(1), found.group(2)) == [((title,), "")]


def written_title(title: str) -> str:
    """``title`` as a citation writes it so as to read it back whole: as it is, else in quotes (``“A、B”``,
    ``“Agentic RL（智能体强化学习）”``); an empty string when quotes would not do either (a title holding ``“`` or ``”``
    and a separator, or brackets within brackets)."""
    if _reads_back(title, title):
        return title
    quoted = f"“{title}”"
    return quoted if _reads_back(quoted, title) else ""
