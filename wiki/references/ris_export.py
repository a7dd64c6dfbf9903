"""Sources written as RIS, which EndNote, Zotero, Mendeley and the wiki's own importer (:mod:`wiki.references.ris`) read.

Each work is a record from ``TY  -`` to ``ER  -``: its type (from its BibTeX entry type, else from its kind), title
(``TI``), short name (``ST``, where it is not the title's head), authors (``AU``, one a line, as the wiki keeps them, none for
``et al.``), year
(``PY``) and month (``DA``), venue (``T2``; ``PB`` for a work published whole: a book, a report, a thesis), pages
(``SP``/``EP``), volume, issue, edition, series, publisher, place, ISBN or ISSN, DOI (``DO``), arXiv ID (``AN``,
``arXiv:…``, as an archive's accession number), URL (``UR``), abstract (``AB``) and notes (``N1``, HTML paragraphs
as Zotero writes them), and the citation key (``ID``), the same as the BibTeX and CSL-JSON exports give.

What RIS has no tag for goes in Zotero's "Extra" (``M2``) as ``tex.<field>: value`` lines, which Better BibTeX reads
too: an entry type the RIS type does not say (``tex.entrytype: inbook``), the kind where the type says another
(``tex.entrysubtype: survey``, as the BibTeX export writes it), a bibliographic detail by BibTeX's name, and an
author list that goes on as BibTeX's author field (``tex.author= Doe, Jane and others``). Which of
them a record needs is found by reading the record back with the importer: every field the wiki keeps comes back as
it was, so that importing the export finds each work unchanged.

An abstract's or a note's paragraphs are written on lines of their own, continuing their tag's value; a line that would
read as a tag of its own (``ER  - …``) is set in by a space.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from typing import Any

from wiki.models import Source
from wiki.references.bibtex_export import ENTRY_TYPE_BY_KIND, bibtex_persons
from wiki.references.citation_keys import citation_keys
from wiki.references.draft import BIBLIOGRAPHIC_FIELDS, short_name_from_title
from wiki.references.names import author_names, is_et_al
from wiki.references.ris import BOOK_TYPES, TAGS, draft_from_record

# The RIS type each BibTeX entry type is written as (the importer reads each back, or the record says the entry type
# in M2: an entry type RIS shares with another, such as inbook and incollection).
TYPE_BY_ENTRY_TYPE = {
    "article": "JOUR", "inproceedings": "CONF", "conference": "CONF", "incollection": "CHAP", "inbook": "CHAP",
    "book": "BOOK", "collection": "EDBOOK", "proceedings": "CONF", "phdthesis": "THES", "mastersthesis": "THES",
    "thesis": "THES", "techreport": "RPRT", "report": "RPRT", "unpublished": "UNPB", "online": "ELEC",
    "electronic": "ELEC", "www": "ELEC", "software": "COMP", "dataset": "DATA", "misc": "GEN",
}
# A thesis' degree, in the M3 "type of work" (read back by wiki.references.draft.thesis_entry_type).
DEGREE_BY_ENTRY_TYPE = {"phdthesis": "PhD thesis", "mastersthesis": "Master's thesis"}
# The types whose venue RIS calls the publisher (PB): a work printed on its own, in no container.
_PUBLISHED_WHOLE = frozenset({"BOOK", "EDBOOK", "RPRT", "THES"})
# The details a record gives with tags of their own, by BibTeX's names.
_DETAIL_TAGS = {"volume": "VL", "number": "IS", "edition": "ET", "series": "T3", "address": "CY"}
# A line that a reader would take for a tag of its own, or for the start or end of a record.
_TAG_LIKE = re.compile(r"^[A-Z][A-Z0-9]  -")
_PAGE_RANGE = re.compile(r"^\s*([^\s–—-]+)\s*(?:–|—|-{1,3})\s*([^\s–—-]+)\s*$")


def _lines(tag: str, value: str) -> list[str]:
    """``tag  - value``, a value's further lines following it, each set in by a space when it would read as a tag."""
    first, *rest = value.split("\n")
    return [f"{tag}  - {first}", *(f" {line}" if _TAG_LIKE.match(line) else line for line in rest)]


def _paragraphs(text: str) -> list[str]:
    return [part.strip() for part in re.split(r"\n[ \t]*\n", text.replace("\r\n", "\n")) if part.strip()]


def _notes(notes: str) -> str:
    """A work's notes as Zotero writes a note: HTML, a paragraph each ``<p>`` on a line of its own, the text escaped
    (the importer strips the markup and reads the entities back)."""
    return "\n".join(f"<p>{html.escape(paragraph, quote=False)}</p>" for paragraph in _paragraphs(notes))


def _pages(pages: str) -> list[tuple[str, str]]:
    found = _PAGE_RANGE.match(pages)
    return [("SP", found[1]), ("EP", found[2])] if found else [("SP", pages.strip())]


def _entry_type(source: Source) -> str:
    return source.entry_type or ENTRY_TYPE_BY_KIND.get(source.kind, "misc")


def _type(source: Source) -> str:
    return TYPE_BY_ENTRY_TYPE.get(_entry_type(source), "GEN")


def _fields(source: Source, key: str) -> list[tuple[str, str]]:
    """The record's tags and values, in the order RIS writers give them; M2 is added by :func:`ris_record`."""
    ris_type = _type(source)
    details = dict(source.bibliographic)
    fields: list[tuple[str, str]] = [("TY", ris_type), ("TI", source.title)]
    if source.short_name and source.short_name != short_name_from_title(source.title):
        fields.append(("ST", source.short_name))
    # an author a line; a list that goes on (et al.) is said so in M2, as RIS has no name for it
    fields += [("AU", name) for name in author_names(source.authors) if not is_et_al(name)]
    if source.year:
        fields.append(("PY", str(source.year)))
        month = details.get("month", "")
        if month.isdigit() and 1 <= int(month) <= 12:
            fields.append(("DA", f"{source.year}/{int(month):02d}//"))
    publisher = details.get("publisher", "")
    if source.venue:
        # a book's, a report's or a thesis' venue is who published it, unless a publisher of its own is given
        whole = ris_type in _PUBLISHED_WHOLE and publisher in ("", source.venue)
        fields.append(("PB" if whole else "T2", source.venue))
        if whole:
            publisher = ""
    if degree := DEGREE_BY_ENTRY_TYPE.get(source.entry_type):
        fields.append(("M3", degree))
    if details.get("pages"):
        fields += _pages(details["pages"])
    fields += [(tag, details[name]) for name, tag in _DETAIL_TAGS.items() if details.get(name)]
    if publisher:
        fields.append(("PB", publisher))
    if number := details.get("isbn" if source.entry_type in BOOK_TYPES else "issn"):
        fields.append(("SN", number))
    if source.doi:
        fields.append(("DO", source.doi))
    if source.arxiv_id:
        fields.append(("AN", f"arXiv:{source.arxiv_id}"))
    if source.url:
        fields.append(("UR", source.url))
    if abstract := "\n\n".join(_paragraphs(source.abstract)):
        fields.append(("AB", abstract))
    if source.notes.strip():
        fields.append(("N1", _notes(source.notes)))
    # the other fields RIS has a tag for: a keyword a line, as the importer reads them back into BibTeX's list
    fields += [("KW", word) for word in (w.strip() for w in source.extra_fields.get("keywords", "").split(",")) if word]
    if language := source.extra_fields.get("language") or source.extra_fields.get("langid"):
        fields.append(("LA", language))
    fields.append(("ID", key))
    return fields


def _as_read(fields: list[tuple[str, str]]) -> dict[str, Any]:
    """The record as rispy gives it to the importer, from the tags written."""
    record: dict[str, Any] = {}
    for tag, value in fields:
        name = TAGS[tag]
        if name in ("authors", "urls", "notes"):
            record.setdefault(name, []).append(value)
        else:
            record.setdefault(name, value)
    return record


def _extra(source: Source, fields: list[tuple[str, str]]) -> list[str]:
    """What the record, read back, would not give as the work has it: the entry type, the kind, each bibliographic
    detail, biblatex's issue, as ``tex.<field>: value`` lines."""
    draft, _, _ = draft_from_record(_as_read(fields))
    lines = []
    # the authors, where the AU lines do not give them as the work has them (a list that goes on: et al.), as the
    # BibTeX author field Better BibTeX writes from Zotero's Extra in the field's stead (raw LaTeX: "=")
    if draft.authors != source.authors:
        lines.append(f"tex.author= {bibtex_persons(source.authors)}")
    # a work with no entry type of its own is written as every export writes it: as the one its kind calls for
    if draft.entry_type != (entry_type := _entry_type(source)):
        lines.append(f"tex.entrytype: {entry_type}")
    if draft.kind != source.kind:
        lines.append(f"tex.entrysubtype: {source.kind}")
    lines += [f"tex.{name}: {' '.join(value.split())}" for name, value in source.bibliographic.items()
              if name in BIBLIOGRAPHIC_FIELDS and value and draft.bibliographic.get(name) != value]
    # biblatex's issue, which RIS's IS (BibTeX's number) is not
    if issue := source.extra_fields.get("issue", "").strip():
        lines.append(f"tex.issue: {' '.join(issue.split())}")
    return lines


def ris_record(source: Source, key: str) -> str:
    """One source as a RIS record, ``TY  -`` to ``ER  -``."""
    fields = _fields(source, key)
    if extra := _extra(source, fields):
        fields.insert(len(fields) - 1, ("M2", "\n".join(extra)))
    lines = [line for tag, value in fields for line in _lines(tag, value)]
    return "\n".join([*lines, "ER  - "]) + "\n"


def dump_ris(sources: Iterable[Source]) -> str:
    """The sources as one RIS file, in the order given, a blank line between records (no header: RIS has none)."""
    sources = list(sources)
    keys = citation_keys(sources)
    return "\n".join(ris_record(source, keys[source.pk]) for source in sources)
