"""Finding the wiki's citations in text: ``（来源：Title，pp.3-4）``, ``（来源：A、B）``, ``（综合：Title）``, and several
works each at its own locator, ``（来源：A，p.3；B，§2）``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext

from wiki.references.locators import is_valid_locator

KIND_BY_WORD = {"来源": "cited", "综合": "synthesised"}

CITATION_RE = re.compile(r"（(来源|综合)：([^（）\n]*)）")
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


def parse_citation_body(kind_word: str, body: str) -> list[CitationGroup] | str:
    """The parts of one citation body (titles and their locator; ``A，p.3；B，§2`` is two), or a message saying why it
    cannot be read."""
    body = body.strip()
    if not body:
        return "the citation names no source"
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
        tail = tail.strip()
        if not is_valid_locator(tail):
            return gettext("“%(locator)s” is not a locator (expected p.3, pp.3-4, §3.1, Table 2, Fig. 3, Appendix B…)") % {"locator": tail}
        if len(tail) > MAX_LOCATOR_LENGTH:
            return gettext("the locator is longer than %(limit)s characters: cite the parts in separate citations") % {"limit": MAX_LOCATOR_LENGTH}
        locator = tail
    titles = tuple(title.strip() for title in head.split("、"))
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
        if closing < 0 or (0 <= newline < closing):
            message = gettext("unbalanced bracket: the citation is never closed")
        else:
            message = gettext("unknown citation form “%(form)s”: write （来源：Title，locator） or （综合：Title）") % {"form": opener.strip()}
        end = match.end() + (closing + 1 if closing >= 0 else min(len(rest), 60))
        problems.append(_problem(text, match.start(), end, message))
    problems.sort(key=lambda p: p.line)
    return refs, problems


def _problem(text: str, start: int, end: int, message: str) -> CitationProblem:
    excerpt = text[start : min(end, start + 120)]
    return CitationProblem(message=message, excerpt=excerpt, line=text.count("\n", 0, start) + 1)
