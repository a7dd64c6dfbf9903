"""How to cite one work: its reference in an APA-like style and in a GB/T 7714-like one (the national standard Chinese
readers cite by), as plain text in parts, a part in italics where the style sets it so.

Both are written from the fields the wiki keeps, none made up: a work without a year is ``n.d.`` in APA and has none
in GB/T 7714, a venue or a link is given only when the work has one. Titles are kept in the case they were written
(APA's sentence case cannot be made from a title without losing its names' capitals). The reference goes to the
work itself: its DOI, else its arXiv ID (as the DOI arXiv gives every preprint), else its URL.

APA (7th edition) lists up to twenty authors, ``Family, G. G.``, the last after ``&``; with more, the first nineteen,
an ellipsis and the last. GB/T 7714 lists three, ``Family G G`` without points, then ``等`` for a Chinese work or
``et al.`` for another, and marks the kind of document after the title: ``[J]`` a journal article, ``[C]`` a paper in
proceedings, ``[M]`` a book, ``[D]`` a thesis, ``[R]`` a report, ``[EB/OL]`` a web page or a preprint read online
(with the day it was cited), ``[CP/OL]`` a program, ``[DS/OL]`` a dataset, ``[Z]`` anything else. A Chinese name
(``张三``) and an organisation's (``Qwen Team``) are written whole in both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from wiki.models import Source, SourceKind
from wiki.references.bibtex_export import ENTRY_TYPE_BY_KIND
from wiki.references.names import is_et_al, person, unbraced
from wiki.text.lang import has_chinese

# The most authors APA lists; above it, the first nineteen, an ellipsis and the last.
APA_MOST_AUTHORS = 20
# The authors GB/T 7714 lists before 等 / et al.
GBT_AUTHORS = 3
# GB/T 7714's code for the kind of document, by the BibTeX entry type (a work without one by its kind's).
GBT_TYPE_BY_ENTRY_TYPE = {
    "article": "J", "inproceedings": "C", "conference": "C", "proceedings": "C", "incollection": "M", "inbook": "M",
    "book": "M", "collection": "M", "phdthesis": "D", "mastersthesis": "D", "thesis": "D", "techreport": "R",
    "report": "R", "online": "EB/OL", "electronic": "EB/OL", "www": "EB/OL", "software": "CP/OL",
    "dataset": "DS/OL", "misc": "Z", "unpublished": "Z",
}
# Types GB/T 7714 cites online, with the day they were read.
ONLINE_TYPES = frozenset({"EB/OL", "CP/OL", "DS/OL"})


@dataclass(frozen=True)
class Part:
    """A run of a citation's text; ``italic`` where the style sets it in italics (a journal's or a book's name)."""

    text: str
    italic: bool = False


@dataclass(frozen=True)
class Person:
    """An author as a reference style writes one: a person's family name and given names, or a name written whole (a
    Chinese name, an organisation's, ``et al.``)."""

    family: str
    given: str = ""
    whole: bool = False
    suffix: str = ""  # Jr., III: after the initials

    @classmethod
    def parse(cls, name: str) -> Person:
        """One author as the wiki keeps it, split as the exports split it (``wiki.references.names``): ``van der
        Maaten, Laurens`` has the family name ``van der Maaten``; an organisation, written whole, loses its braces."""
        name = " ".join(name.split())
        if is_et_al(name):
            return cls("et al.", whole=True)
        parsed = None if has_chinese(name) else person(name)
        if parsed is None:
            return cls(unbraced(name), whole=True)
        family = " ".join(part for part in (parsed.particle, parsed.family) if part)
        return cls(family, parsed.given, suffix=parsed.suffix)

    def initials(self, *, points: bool) -> str:
        """The given names as initials (``Richard S.`` → ``R. S.``; ``Jean-Paul`` → ``J.-P.``), without points for
        GB/T 7714."""
        mark = "." if points else ""
        initials = []
        for word in self.given.replace(".", ". ").split():
            parts = [part for part in word.split("-") if part[:1].isalpha()]
            if parts:
                initials.append("-".join(f"{part[0].upper()}{mark}" for part in parts))
        return " ".join(initials)

    def apa(self) -> str:
        if self.whole or not self.given:
            return self.family
        return ", ".join(part for part in (self.family, self.initials(points=True), self.suffix) if part)

    def gbt(self) -> str:
        if self.whole or not self.given:
            return self.family
        return " ".join(part for part in (self.family, self.initials(points=False), self.suffix) if part)


def persons(authors: str) -> list[Person]:
    return [Person.parse(name) for name in authors.split(";") if name.strip()]


def _entry_type(source: Source) -> str:
    return source.entry_type or ENTRY_TYPE_BY_KIND.get(source.kind, "misc")


def _preprint(source: Source) -> bool:
    """Whether the work is cited as a preprint: it is one, or it is out on arXiv only (no venue but arXiv, and no entry
    type saying it is anything else)."""
    on_arxiv = bool(source.arxiv_id) and (not source.venue or source.venue.lower().startswith("arxiv"))
    return source.kind == SourceKind.PREPRINT or (on_arxiv and not source.entry_type)


def _link(source: Source) -> str:
    if source.doi:
        return f"https://doi.org/{source.doi}"
    if source.arxiv_id:
        return f"https://doi.org/10.48550/arXiv.{source.arxiv_id}"
    return str(source.url)


def _end(text: str) -> str:
    """``text`` ended by a full stop, unless it ends with a mark of its own."""
    return text if text.endswith((".", "?", "!", "。", "？", "！")) else f"{text}."


def _merge(parts: list[Part]) -> list[Part]:
    """Neighbouring runs of the same style as one; empty runs left out."""
    merged: list[Part] = []
    for part in parts:
        if not part.text:
            continue
        if merged and merged[-1].italic == part.italic:
            merged[-1] = Part(merged[-1].text + part.text, part.italic)
        else:
            merged.append(part)
    return merged


def _apa_authors(people: list[Person]) -> str:
    """The authors as APA lists them; a list the work ends with "et al." (the rest unknown) ends so, without ``&``."""
    more = bool(people) and people[-1].whole and people[-1].family == "et al."
    names = [person.apa() for person in (people[:-1] if more else people)]
    if more:
        return ", ".join([*names, "et al."]) if names else ""
    if len(names) > APA_MOST_AUTHORS:
        return ", ".join(names[: APA_MOST_AUTHORS - 1]) + f", … {names[-1]}"
    if len(names) > 1:
        return ", ".join(names[:-1]) + f", & {names[-1]}"
    return "".join(names)


def apa(source: Source) -> list[Part]:
    """``Family, G., & Family, G. (2024). Title. Venue, 3(2), 12–15. https://doi.org/…``: a journal article's venue
    and volume in italics, a paper in proceedings ``In Venue (pp. 12–15)``, a book's, a report's, a thesis' or a
    preprint's own title in italics, a preprint's arXiv number after it."""
    details = source.bibliographic
    entry_type = _entry_type(source)
    preprint = _preprint(source)
    whole = preprint or entry_type in ("book", "collection", "phdthesis", "mastersthesis", "thesis", "techreport", "report")
    authors = _apa_authors(persons(source.authors))
    year = f"({source.year})" if source.year else "(n.d.)"
    number = f" (arXiv:{source.arxiv_id})" if source.arxiv_id and preprint else ""
    title = [Part(source.title, italic=whole), Part(number)]
    # without an author, the title comes first and the year after it
    parts = [Part(f"{_end(authors)} {year}. "), *title, Part(". ")] if authors else [*title, Part(f". {year}. ")]
    if source.title.endswith(("?", "!")) and not number:
        parts[-1 if authors else 2] = Part(" " if authors else f" {year}. ")
    pages = details.get("pages", "").replace("--", "–")
    venue = source.venue or ("arXiv" if source.arxiv_id and preprint else "")
    if entry_type == "article" and venue and not whole:
        parts.append(Part(venue, italic=True))
        if volume := details.get("volume"):
            parts += [Part(", "), Part(volume, italic=True)]
            if issue := details.get("number"):
                parts.append(Part(f"({issue})"))
        parts.append(Part(f", {pages}. " if pages else ". "))
    elif entry_type in ("inproceedings", "conference", "incollection", "inbook") and venue:
        parts += [Part("In "), Part(venue, italic=True), Part(f" (pp. {pages}). " if pages else ". ")]
    elif venue:
        parts.append(Part(f"{_end(venue)} "))
    if link := _link(source):
        parts.append(Part(link))
    return _merge([Part(part.text.rstrip()) if part is parts[-1] else part for part in parts])


def _gbt_authors(people: list[Person], *, chinese: bool) -> str:
    more = bool(people) and people[-1].whole and people[-1].family == "et al."
    listed = [person for person in people if not (person.whole and person.family == "et al.")]
    names = [person.gbt() for person in listed[:GBT_AUTHORS]]
    if (len(listed) > GBT_AUTHORS or more) and names:
        names.append("等" if chinese else "et al")
    return ", ".join(names)


def gbt_type(source: Source) -> str:
    """The work's kind of document as GB/T 7714 marks it; other than a paper or a book, one with an address or a
    preprint is read online (``EB/OL``)."""
    if _preprint(source):
        return "EB/OL"
    code = GBT_TYPE_BY_ENTRY_TYPE.get(_entry_type(source), "Z")
    return "EB/OL" if code == "Z" and source.url else code


def gbt7714(source: Source, *, cited: date) -> list[Part]:
    """``Family G, Family G, Family G, et al. Title[J]. Venue, 2024, 3(2): 12-15. DOI: 10.….``, each kind of document
    as GB/T 7714-2015 writes it; one read online with its date and the day it was cited (``cited``), and its address:
    ``Title[EB/OL]. arXiv, (2023)[2025-03-05]. https://arxiv.org/abs/….``"""
    details = source.bibliographic
    code = gbt_type(source)
    authors = _gbt_authors(persons(source.authors), chinese=has_chinese(source.title))
    year = str(source.year) if source.year else ""
    pages = re.sub(r"\s*(?:–|—|-{1,3})\s*", "-", details.get("pages", ""))
    publisher = source.venue or details.get("publisher", "")
    if code == "J":
        issue = details.get("volume", "") + (f"({details['number']})" if details.get("number") else "")
        after = ". " + ", ".join(filter(None, (source.venue, year, issue))) + (f": {pages}" if pages else "")
    elif code == "C":
        after = (f"//{source.venue}" if source.venue else "") + (f". {year}" if year else "") + (f": {pages}" if pages else "")
    elif code in ("M", "D", "R"):
        after = ". " + ", ".join(filter(None, (": ".join(filter(None, (details.get("address", ""), publisher))), year)))
    elif code in ONLINE_TYPES:
        venue = source.venue or ("arXiv" if source.arxiv_id else "")
        link = source.url or (f"https://arxiv.org/abs/{source.arxiv_id}" if source.arxiv_id else "")
        after = ". " + ", ".join(filter(None, (venue, f"({year})" if year else ""))) + f"[{cited.isoformat()}]"
        after += f". {link}" if link else ""
    else:
        after = ". " + ", ".join(filter(None, (source.venue, year)))
    text = (f"{_end(authors)} " if authors else "") + f"{source.title}[{code}]" + after.rstrip(". ")
    text = _end(text)
    if source.doi:
        text += f" DOI: {source.doi}."
    return [Part(text)]


def plain(parts: list[Part]) -> str:
    return "".join(part.text for part in parts)
