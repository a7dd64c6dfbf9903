"""When two references are one work, as a librarian judges it (plain Python over anything with the fields of a
source: saved sources, unsaved ones, drafts).

Same arXiv ID (any version) or same DOI: one work. Then the same citation key, when one work has it, as a reference
manager keeps it for its record whatever else is corrected (Better BibTeX's pinned keys): the record unless its
identifiers or both its first author and its title say otherwise. Otherwise the same normalised full title, with
compatible years (equal, or a year apart: a preprint and its published version; Traditional characters read as Simplified) and the same first author when both
name one (the family name, and the first given name or its initial when both give one: ``Wang, Lei`` is not
``Wang, Xiaomeng``); identifiers that differ (two arXiv IDs, two DOIs) make them two works. A short name alone is never
a match. A work created from a citation, with nothing but its title, is the entry whose title before its subtitle (a
colon, a dash: :data:`~wiki.references.identifiers.SUBTITLE_MARK`) is that title. A match that brings an identifier the existing work lacks, or a year apart, is another version of it:
the identifier is offered, the editor decides.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Generic, Protocol, TypeVar

from django.utils.translation import gettext

from wiki.references.identifiers import (
    SUBTITLE_MARK,
    arxiv_match_key,
    first_author_key,
    normalize_title,
    same_first_author,
)

# How alike two normalised titles must be (difflib's ratio) for a key to name the record despite a corrected title.
_KEY_TITLE_RATIO = 0.8


class Reference(Protocol):
    title: str
    authors: str
    year: int | None
    arxiv_id: str
    doi: str
    bibtex_key: str


@dataclass(frozen=True)
class WorkMatch:
    """``work`` is the same work as the reference, for ``reason``; ``missing`` are identifiers it could gain."""

    work: object
    reason: str
    missing: dict[str, str] = field(default_factory=dict)
    years_apart: bool = False

    @property
    def is_version(self) -> bool:
        return bool(self.missing) or self.years_apart


def main_title(title: str) -> str:
    """The title before its subtitle (after a colon of either width or a dash, :data:`SUBTITLE_MARK`), normalised:
    ``ReAct: Synergizing…``, ``ReAct — Synergizing…`` and ``ReAct -- Synergizing…`` → ``react``; empty for a title
    without a subtitle."""
    title = unicodedata.normalize("NFKC", title)
    head = SUBTITLE_MARK.split(title, 1)[0]
    return normalize_title(head) if head != title else ""


def is_stub(work: Reference) -> bool:
    """A work known by nothing but its title (as a citation creates it)."""
    return not (work.authors or work.year or work.arxiv_id or work.doi)


def _missing(reference: Reference, work: Reference) -> dict[str, str]:
    return {name: getattr(reference, name) for name in ("arxiv_id", "doi") if getattr(reference, name) and not getattr(work, name)}


def _years_compatible(a: int | None, b: int | None) -> bool:
    return a is None or b is None or abs(a - b) <= 1


def _same_arxiv_id(a: str, b: str) -> bool:
    return bool(a and b) and arxiv_match_key(a) == arxiv_match_key(b)


def _identifiers_differ(reference: Reference, work: Reference) -> bool:
    return bool((reference.arxiv_id and work.arxiv_id and not _same_arxiv_id(reference.arxiv_id, work.arxiv_id)) or (
        reference.doi and work.doi and reference.doi != work.doi))


def _titles_alike(title: str, other: str) -> bool:
    """The same title, or one corrected by a few characters or a subtitle; Traditional characters read as their
    Simplified forms, as :func:`normalize_title` reads them (a library converted to the other script keeps its keys)."""
    norm, other_norm = normalize_title(title), normalize_title(other)
    if not norm or not other_norm:
        return False
    if norm == other_norm or norm == main_title(other) or other_norm == main_title(title):
        return True
    return SequenceMatcher(None, norm, other_norm, autojunk=False).ratio() >= _KEY_TITLE_RATIO


def _key_match(reference: Reference, work: Reference) -> bool:
    """Whether ``work``, the one work with the reference's key, is its record: neither an identifier nor both the
    first author and the title say otherwise (a key such as ``smith2020`` may name another work in another file)."""
    if _identifiers_differ(reference, work):
        return False
    return (bool(same_first_author(reference.authors, work.authors))
            or _titles_alike(reference.title, work.title))


def _title_match(reference: Reference, work: Reference) -> str | None:
    if _identifiers_differ(reference, work):
        return None
    title, other = normalize_title(reference.title), normalize_title(work.title)
    if not title or not other:
        return None
    if title != other:
        if is_stub(work) and other == main_title(reference.title):
            return gettext("cited on a page as “%(title)s”") % {"title": work.title}
        if is_stub(reference) and title == main_title(work.title):
            return gettext("the work cited as “%(title)s”") % {"title": reference.title}
        return None
    if not _years_compatible(reference.year, work.year):
        return None
    same = same_first_author(reference.authors, work.authors)
    if same is False:
        return None
    if reference.year and work.year and reference.year != work.year:
        if same is None:
            return gettext("same title, a year apart (%(year)s and %(other)s)") % {"year": work.year, "other": reference.year}
        return gettext("same title and first author, a year apart (%(year)s and %(other)s)") % {
            "year": work.year, "other": reference.year}
    same_author, same_year = bool(same), bool(reference.year and work.year)
    if same_author and same_year:
        return gettext("same title, first author and year")
    if same_author:
        return gettext("same title and first author")
    return gettext("same title and year") if same_year else gettext("same title")


def find_work(reference: Reference, works: Iterable[Reference], *, keyed: Sequence[Reference] = ()) -> WorkMatch | None:
    """The first of ``works`` that is the same work as ``reference`` (identifiers, then the key, then titles), or None.

    ``keyed`` are the works holding the reference's key, as the caller judges them (saved works only: an entry
    repeating a key within its file is no record of it); one alone is the reference's record, if nothing says
    otherwise."""
    works = list(works)
    if reference.arxiv_id:
        for work in works:
            if _same_arxiv_id(work.arxiv_id, reference.arxiv_id):
                return WorkMatch(work, gettext("same arXiv ID %(id)s") % {"id": reference.arxiv_id}, _missing(reference, work))
    if reference.doi:
        for work in works:
            if work.doi == reference.doi:
                return WorkMatch(work, gettext("same DOI %(doi)s") % {"doi": reference.doi}, _missing(reference, work))
    if len(keyed) == 1 and _key_match(reference, keyed[0]):
        work = keyed[0]
        apart = bool(reference.year and work.year and reference.year != work.year)
        return WorkMatch(work, gettext("same key %(key)s") % {"key": reference.bibtex_key}, _missing(reference, work),
                         years_apart=apart)
    for work in works:
        reason = _title_match(reference, work)
        if reason is not None:
            apart = bool(reference.year and work.year and reference.year != work.year)
            return WorkMatch(work, reason, _missing(reference, work), years_apart=apart)
    return None


def possibly_same_work(reference: Reference, work: Reference) -> str | None:
    """Why ``reference`` may be ``work`` though they are not found to be one (:func:`find_work`), for the editor to
    judge: one's title is the other's with a subtitle, or the same title by a first author of the same family name
    (``Wang, Lei`` and ``Wang, Xiaomeng``), in compatible years; None when nothing says so."""
    if _identifiers_differ(reference, work) or not _years_compatible(reference.year, work.year):
        return None
    if first_author_key(reference.authors) and first_author_key(work.authors) and \
            first_author_key(reference.authors) != first_author_key(work.authors):
        return None
    title, other = normalize_title(reference.title), normalize_title(work.title)
    if not title or not other:
        return None
    if title == other:
        if same_first_author(reference.authors, work.authors) is False:
            return gettext("the same title, by “%(author)s” and “%(other)s”") % {
                "author": reference.authors.split(";")[0].strip(), "other": work.authors.split(";")[0].strip()}
        return gettext("the same title")
    if title == main_title(work.title):
        return gettext("its title without the subtitle")
    if other == main_title(reference.title):
        return gettext("its title with a subtitle")
    return None


def lookup_keys(references: Iterable[Reference]) -> tuple[set[str], set[str], set[str]]:
    """The arXiv IDs, DOIs and normalised titles (full, and before the colon) that candidates are fetched by."""
    arxiv: set[str] = set()
    doi: set[str] = set()
    titles: set[str] = set()
    for reference in references:
        if reference.arxiv_id:
            arxiv.add(reference.arxiv_id)
        if reference.doi:
            doi.add(reference.doi)
        titles.update(t for t in (normalize_title(reference.title), main_title(reference.title)) if t)
    return arxiv, doi, titles


_Work = TypeVar("_Work", bound=Reference)


class WorkIndex(Generic[_Work]):
    """Works looked up by what :func:`find_work` matches on (arXiv ID, DOI, normalised title, title before its
    subtitle), so that matching each entry of a file reads only the works that may be it rather than every work the
    file and the wiki have: ``find_work(reference, index.possible(reference))`` finds what ``find_work`` finds among
    them all, in the order they were added."""

    def __init__(self, works: Iterable[_Work] = ()) -> None:
        self._works: list[_Work] = []
        self._positions: dict[tuple[str, str], list[int]] = {}
        for work in works:
            self.add(work)

    def add(self, work: _Work) -> None:
        position = len(self._works)
        self._works.append(work)
        keys = [("title", normalize_title(work.title)), ("main", main_title(work.title))]
        if work.arxiv_id:
            keys.append(("arxiv", arxiv_match_key(work.arxiv_id)))
        if work.doi:
            keys.append(("doi", work.doi))
        for key in keys:
            if key[1]:
                self._positions.setdefault(key, []).append(position)

    def possible(self, reference: Reference) -> list[_Work]:
        """The works sharing an identifier with ``reference``, or its title, or whose title or title before the
        subtitle is its title before the subtitle or its title (a work cited by its name alone, either way)."""
        title, main = normalize_title(reference.title), main_title(reference.title)
        keys = [("title", title), ("main", title), ("title", main)]
        if reference.arxiv_id:
            keys.append(("arxiv", arxiv_match_key(reference.arxiv_id)))
        if reference.doi:
            keys.append(("doi", reference.doi))
        positions = sorted({position for key in keys if key[1] for position in self._positions.get(key, ())})
        return [self._works[position] for position in positions]


class HeadClaims:
    """The works known by their title alone (as a citation creates them) that entries of one file were found to be by
    their title before the subtitle. Such a work is one work: once an entry is found to be it, an entry with another
    full title of the same head (``ARES: An Automated Evaluation Framework…`` and ``ARES: Alternating Reinforcement
    Learning…``, two papers) is not found to be it too, and is a work of its own."""

    def __init__(self) -> None:
        self._titles: dict[int, str] = {}

    @staticmethod
    def _key(work: object) -> int:
        pk = getattr(work, "pk", None)
        return pk if isinstance(pk, int) else -id(work)

    def open_to(self, reference: Reference, works: Iterable[_Work]) -> list[_Work]:
        """``works`` less those known by their title alone that an entry of another full title was found to be."""
        title = normalize_title(reference.title)
        return [work for work in works if not is_stub(work) or self._titles.get(self._key(work), title) == title]

    def claim(self, reference: Reference, work: Reference) -> None:
        """Notes that ``reference`` was found to be ``work``: a claim when ``work`` is known by its title alone and
        that title is the reference's head."""
        title, head = normalize_title(reference.title), main_title(reference.title)
        if is_stub(work) and head and head == normalize_title(work.title) != title:
            self._titles.setdefault(self._key(work), title)
