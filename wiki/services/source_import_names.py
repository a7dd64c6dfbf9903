"""The short names of the works an import creates: each one work's, as pages cite works by it.

A short name the entry gives itself (``shorttitle``, CSL's ``title-short``) that another work has refuses the entry, as
a key naming another work would: whoever chose it chose it for that work. One the wiki makes from the title (its
head, ``ReAct`` of ``ReAct: …``, or the whole title) is the wiki's own making, so when another work has it, the whole
title is tried, then the name followed by what a reader tells the works apart by: the year (``Introduction (2010)``),
the first author's family name (``Artificial Intelligence (Rich)``), both, and last a number; the report says so.
A work found so to share its title, or its title's head, with one of compatible year and first author may be the
same work (:func:`~wiki.references.matching.possibly_same_work`): it is created, and the report names the other for
the editor to merge them if they are.

The names are looked up in two queries at most, however many entries: one for every name the entries could take,
one for the numbered names when any is needed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from wiki.models import Source
from wiki.models.rules import fit, max_length
from wiki.references.bibtex import ParsedEntry
from wiki.references.draft import SourceDraft, short_name_from_title
from wiki.references.identifiers import first_author_family, first_author_key, short_name_key
from wiki.references.matching import possibly_same_work
from wiki.services.sources import sources_named
from wiki.text.lang import has_chinese


def head_or_short_name(draft: SourceDraft) -> str:
    return fit(Source, "short_name", draft.short_name or short_name_from_title(draft.title))


def _is_head(short_name: str, title: str) -> bool:
    """Whether ``short_name`` is only the head of ``title`` (``ReAct`` of ``ReAct: …``), not a name of its own."""
    return short_name == short_name_from_title(title) and fit(Source, "short_name", title) != short_name


def _is_made(short_name: str, title: str) -> bool:
    """Whether the wiki made ``short_name`` from the title (its head, or the title whole), rather than the entry giving
    a name of its own."""
    return _is_head(short_name, title) or short_name == fit(Source, "short_name", title)


def own_names(entries: list[ParsedEntry]) -> dict[str, int]:
    """The short names entries give themselves (a short title, or a title that is its own name), folded: the line of
    the first to give each. A title's head yields to them wherever the entry stands in the file."""
    own: dict[str, int] = {}
    for entry in entries:
        draft = entry.draft
        if draft is not None and not entry.errors and not _is_head(draft.short_name, draft.title):
            own.setdefault(short_name_key(draft.short_name), entry.line)
    return own


def _told_apart(name: str, telling: str) -> str:
    """``name (telling)``, in full-width brackets for a Chinese name (``红楼梦（1987）``), within a short name's length."""
    suffix = f"（{telling}）" if has_chinese(name) else f" ({telling})"
    return name[: max_length(Source, "short_name") - len(suffix)].rstrip() + suffix


def _tellings(work: SourceDraft | Source, other: Source | None) -> list[str]:
    """What tells ``work`` apart from ``other`` as a reader would: its year, its first author's family name, both."""
    family = first_author_family(work.authors)
    comma = "，" if has_chinese(family) else ", "
    tellings = []
    if work.year and (other is None or other.year != work.year):
        tellings.append(str(work.year))
    if family and (other is None or first_author_key(other.authors) != first_author_key(work.authors)):
        tellings.append(family)
    if family and work.year:
        tellings.append(f"{family}{comma}{work.year}")
    return tellings


@dataclass(frozen=True)
class Naming:
    """The short name a new work is saved under, with what the report says of it (``note``), and the work it may
    be the same as (``possible``, for ``possible_reason``). ``numbered``: the name is to be numbered once the numbers
    taken are known (:meth:`ShortNames.number`), as the work ``other`` (or the entry on ``other_line``) has it."""

    name: str
    note: str = ""
    possible: Source | None = None
    possible_reason: str = ""
    numbered: bool = False
    other: Source | None = None
    other_line: int | None = None


def told_apart_note(base: str, name: str, other: Source | None, line: int | None) -> str:
    """What the report says of a work named ``name`` because ``other`` (or the entry on ``line``) is called ``base``."""
    if line is not None:
        return gettext("the entry on line %(line)s is called “%(name)s”: this work is called “%(saved)s”") % {
            "line": line, "name": base, "saved": name}
    assert other is not None
    return gettext("another work, “%(title)s”, is called “%(name)s”: this work is called “%(saved)s”") % {
        "title": other.title, "name": base, "saved": name}


class ShortNames:
    """The short names taken by live works and by the entries of one file named so far."""

    def __init__(self, drafts: list[SourceDraft], *, own_in_file: dict[str, int],
                 in_file: dict[str, tuple[int, Source]]) -> None:
        self.own_in_file = own_in_file
        self.in_file = in_file  # each new work's folded short name: its line and the work
        candidates: list[str] = []
        for draft in drafts:
            whole = fit(Source, "short_name", draft.title)
            candidates += [head_or_short_name(draft), whole, *(_told_apart(whole, t) for t in _tellings(draft, None))]
        self.named = sources_named(candidates)

    def _holder(self, key: str) -> tuple[Source | None, int | None]:
        """The work called ``key``: a live one, or one of the file named before (with its line)."""
        if key in self.named:
            return self.named[key][0], None
        if key in self.in_file:
            line, work = self.in_file[key]
            return work, line
        return None, None

    def _free(self, name: str) -> bool:
        key = short_name_key(name)
        return bool(key) and key not in self.named and key not in self.in_file and key not in self.own_in_file

    def name(self, source: Source) -> Naming:
        """The short name ``source`` (an entry's work, about to be created) is saved under; raises ``ValidationError``
        when the entry gave it a name another work has."""
        head = _is_head(source.short_name, source.title)
        names = [source.short_name, fit(Source, "short_name", source.title)] if head else [source.short_name]
        holders: list[tuple[Source | None, int | None]] = []
        for name in names:
            key = short_name_key(name)
            yields = head and name == source.short_name and key in self.own_in_file
            holder = self._holder(key) if key else (None, None)
            if not key or (holder[0] is None and not yields):
                return self._possibly(Naming(name), source, holders)
            holders.append(holder if holder[0] is not None else (None, self.own_in_file[key]))
        base = names[-1]
        other, line = holders[-1]
        if not _is_made(source.short_name, source.title):
            raise self._taken(base, other, line)
        for telling in _tellings(source, other):
            name = _told_apart(base, telling)
            if self._free(name):
                return self._possibly(Naming(name, note=told_apart_note(base, name, other, line)), source, holders)
        return self._possibly(Naming(base, numbered=True, other=other, other_line=line), source, holders)

    def number(self, bases: list[str]) -> list[str]:
        """Each of ``bases`` numbered (``Introduction (2)``), the first number no live work nor entry has; one query."""
        keys = sorted({re.escape(short_name_key(base)) for base in bases})
        taken = set(Source.objects.filter(name_key__regex=rf"^({'|'.join(keys)})[0-9]+$")
                    .values_list("name_key", flat=True)) if keys else set()
        numbered = []
        for base in bases:
            n = 2
            while not self._free(name := _told_apart(base, str(n))) or short_name_key(name) in taken:
                n += 1
            taken.add(short_name_key(name))
            numbered.append(name)
        return numbered

    @staticmethod
    def _possibly(naming: Naming, source: Source, holders: list[tuple[Source | None, int | None]]) -> Naming:
        for other, _line in holders:
            reason = possibly_same_work(source, other) if other is not None else None
            if other is not None and reason:
                return replace(naming, possible=other, possible_reason=reason)
        return naming

    @staticmethod
    def _taken(name: str, other: Source | None, line: int | None) -> ValidationError:
        if line is not None:
            return ValidationError(gettext("the short name “%(name)s” is that of another work, on line %(line)s: give "
                                           "this entry a short title of its own") % {"name": name, "line": line},
                                   code="short_name_taken")
        assert other is not None
        return ValidationError(gettext("the short name “%(name)s” is that of another work, “%(title)s”: give this entry "
                                       "a short title of its own") % {"name": name, "title": other.title},
                               code="short_name_taken")
