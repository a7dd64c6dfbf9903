"""A page's sections in its Markdown, edited one at a time as a wiki's sections are.

Each heading the page's contents list (levels 2 to 4, as the renderer's table of contents) starts a section, which
runs, heading included, up to the next heading of its level or a higher one (a deeper heading stays inside it).
Headings are found as Python-Markdown finds them (its own patterns): ``#`` marks at the start of a line (or of a
quote's line), or a line underlined with ``=`` or ``-`` that opens a block; a line of a fenced code block is never one, with fences read by
the renderer's own pattern (so a fence nothing closes is no code block, as when the page is rendered).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from markdown.blockprocessors import HashHeaderProcessor
from markdown.extensions.attr_list import get_attrs_and_remainder
from markdown.extensions.fenced_code import FencedBlockPreprocessor

# The heading levels the table of contents lists (the renderer's ``toc_depth``): those that have a section.
SECTION_LEVELS = range(2, 5)

_HASH_HEADING = HashHeaderProcessor.RE
_FENCED_BLOCK = FencedBlockPreprocessor.FENCED_BLOCK_RE
_UNDERLINE = re.compile(r"(?:=+|-+)[ ]*")
_CODE_INDENT = re.compile(r"(?: {4}|\t)")
# A line's quote marks: a heading in a quote is in the contents too.
_QUOTE_MARKS = re.compile(r"(?:[ ]{0,3}>[ ]?)+")


class SectionNotFound(LookupError):
    """The text has no section of that number."""

    def __init__(self, number: int, count: int) -> None:
        super().__init__(f"no section {number}: the text has {count}")
        self.number = number
        self.count = count


@dataclass(frozen=True)
class Heading:
    """A heading of the text: the offset of its first line, its level and its title as typed (marks left out)."""

    start: int
    level: int
    title: str


@dataclass(frozen=True)
class Section:
    """Section ``number`` (from 1, in the order of the text): ``text[start:end]``, its heading first."""

    number: int
    level: int
    title: str
    start: int
    end: int


def _fenced_lines(text: str) -> set[int]:
    """The offsets of the lines inside fenced code blocks, their fences included, matched one after the other from
    the start as the renderer's preprocessor matches them."""
    inside: set[int] = set()
    index = 0
    while (found := _FENCED_BLOCK.search(text, index)) is not None:
        if found.group("attrs") and get_attrs_and_remainder(found.group("attrs"))[1]:
            # Braces that do not close: no fence for the renderer either, which reads on after them.
            index = found.end("attrs")
            continue
        offset = found.start()
        while offset < found.end():
            inside.add(offset)
            offset = text.find("\n", offset, found.end())
            if offset < 0:
                break
            offset += 1
        index = found.end()
    return inside


def _quoted(line: str) -> int:
    found = _QUOTE_MARKS.match(line)
    return found.end() if found else 0


def headings(text: str) -> list[Heading]:
    """Every heading of ``text``, of any level, in order."""
    fenced = _fenced_lines(text) if "```" in text or "~~~" in text else set()
    found: list[Heading] = []
    lines = text.split("\n")
    offset = 0
    block_start = True  # the line opens a block: the first, or one after a blank line or a heading
    skip_next = False
    for index, line in enumerate(lines):
        start, offset = offset, offset + len(line) + 1
        if skip_next:  # the underline of a heading found on the line before
            skip_next, block_start = False, True
            continue
        if start in fenced:
            block_start = False
            continue
        if not line.strip(" \t"):
            block_start = True
            continue
        if (marked := _HASH_HEADING.match(line[_quoted(line):])) is not None:
            found.append(Heading(start=start, level=len(marked["level"]), title=marked["header"].strip()))
            block_start = True
            continue
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if (block_start and not _CODE_INDENT.match(line) and offset not in fenced
                and _UNDERLINE.fullmatch(following) is not None):
            found.append(Heading(start=start, level=1 if following.startswith("=") else 2, title=line.strip()))
            skip_next = True
            continue
        block_start = False
    return found


def sections(text: str) -> list[Section]:
    """The sections of ``text``, numbered from 1 in order."""
    all_headings = headings(text)
    found: list[Section] = []
    for position, heading in enumerate(all_headings):
        if heading.level not in SECTION_LEVELS:
            continue
        end = next((later.start for later in all_headings[position + 1:] if later.level <= heading.level), len(text))
        found.append(Section(number=len(found) + 1, level=heading.level, title=heading.title, start=heading.start, end=end))
    return found


def section(text: str, number: int) -> Section:
    """Section ``number`` of ``text``; :class:`SectionNotFound` when it has none of that number."""
    found = sections(text)
    if not 1 <= number <= len(found):
        raise SectionNotFound(number, len(found))
    return found[number - 1]


def section_splice(text: str, number: int, replacement: str) -> str:
    """``text`` with section ``number`` replaced by ``replacement``. A replacement ending with fewer line breaks than
    the section did (a text box drops them readily) gets them back: the next heading stays on a line of its own, apart
    from the paragraph before it (which a heading underlined with ``-`` would otherwise join)."""
    part = section(text, number)
    rest = text[part.end:]
    if rest and replacement:
        old = text[part.start:part.end]
        missing = (len(old) - len(old.rstrip("\n"))) - (len(replacement) - len(replacement.rstrip("\n")))
        replacement += "\n" * max(0, missing)
    return text[:part.start] + replacement + rest


# The opening of an edit summary that names the section edited (``/* Section title */ what changed``), as a section's
# edit form prefills it.
_SECTION_SUMMARY = re.compile(r"\s*/\*\s*(?P<title>.*?)\s*\*/\s*(?P<rest>.*)", re.DOTALL)


@dataclass(frozen=True)
class SectionSummary:
    """An edit summary that opens by naming a section: its title as typed, then the rest of the summary."""

    title: str
    rest: str


def section_summary(comment: str) -> SectionSummary | None:
    """The section ``comment`` opens by naming (``/* Heading */ rest``); None when it names none."""
    found = _SECTION_SUMMARY.fullmatch(comment)
    if found is None or not found["title"]:
        return None
    return SectionSummary(title=found["title"], rest=found["rest"])
