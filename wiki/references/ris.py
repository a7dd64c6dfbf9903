"""RIS (EndNote, Zotero, Mendeley, publishers' “export citation”) read by rispy into drafts."""

from __future__ import annotations

import html
import re
from typing import Any

import nh3
import rispy
from django.utils.translation import gettext

from wiki.models import SourceKind
from wiki.references.bibtex import ParsedEntry
from wiki.references.draft import (
    SourceDraft,
    checked_draft,
    doi_or_warning,
    find_year,
    is_repository_url,
    month_of,
    person_name,
    short_name_from_title,
    thesis_entry_type,
)
from wiki.references.extra_fields import fitting
from wiki.references.identifiers import arxiv_id_from_doi, find_arxiv_id
from wiki.text.spaces import collapse_spaces

KIND_BY_TYPE = {
    "JOUR": SourceKind.PAPER, "JFULL": SourceKind.PAPER, "CONF": SourceKind.PAPER, "CPAPER": SourceKind.PAPER,
    "CHAP": SourceKind.PAPER, "BOOK": SourceKind.PAPER, "THES": SourceKind.PAPER, "RPRT": SourceKind.PREPRINT,
    "UNPB": SourceKind.PREPRINT, "PREPRINT": SourceKind.PREPRINT, "GEN": SourceKind.PREPRINT, "MANSCPT": SourceKind.PREPRINT,
    "ELEC": SourceKind.BLOG, "BLOG": SourceKind.BLOG, "WEB": SourceKind.BLOG, "COMP": SourceKind.PROJECT,
    "DATA": SourceKind.PROJECT,
}
# The BibTeX entry type a RIS type is written back as (a thesis' kind of degree is in M3, its "type of work").
ENTRY_TYPE_BY_TYPE = {
    "JOUR": "article", "JFULL": "article", "EJOUR": "article", "MGZN": "article", "NEWS": "article",
    "CONF": "inproceedings", "CPAPER": "inproceedings", "CHAP": "incollection", "ECHAP": "incollection",
    "BOOK": "book", "EBOOK": "book", "EDBOOK": "collection", "THES": "thesis", "RPRT": "techreport",
    "UNPB": "unpublished", "ELEC": "online", "WEB": "online", "BLOG": "online", "COMP": "software", "DATA": "dataset",
    "GEN": "misc", "PREPRINT": "misc", "MANSCPT": "unpublished",
}
# Where a book's or a chapter's SN is its ISBN; elsewhere it is the journal's ISSN.
_BOOKS = frozenset({"book", "collection", "incollection"})
_START = re.compile(r"^TY  - ", re.MULTILINE)
_END = re.compile(r"^ER  -", re.MULTILINE)


def _first(entry: dict[str, Any], *names: str) -> str:
    for name in names:
        value = entry.get(name)
        if isinstance(value, list):
            value = value[0] if value else ""
        if value:
            return collapse_spaces(str(value))
    return ""


def draft_from_record(entry: dict[str, Any]) -> tuple[SourceDraft, list[str], list[str]]:
    """A draft from one RIS record; the errors that refuse it, and the warnings of what was mended or left out to
    import it (a record with only a short title, ST, takes it as its title)."""
    errors: list[str] = []
    warnings: list[str] = []
    title = _first(entry, "title", "primary_title", "translated_title")
    if not title and (title := _first(entry, "short_title")):
        warnings.append(gettext("no title (TI): its short title (ST) “%(title)s” is taken as the title") % {"title": title})
    if not title:
        errors.append(gettext("no title"))
    raw_year = _first(entry, "year", "publication_year", "date")
    year = find_year(raw_year)
    if raw_year and year is None:
        errors.append(gettext("year “%(value)s” is not a year") % {"value": raw_year})
    doi = doi_or_warning(_first(entry, "doi"), warnings)
    urls = [str(url) for url in entry.get("urls", []) or []]
    arxiv = next((find_arxiv_id(url) or "" for url in urls if "arxiv.org" in url.lower()), "")
    for name in ("journal_name", "secondary_title", "notes", "number", "publisher"):
        value = _first(entry, name)
        if not arxiv and "arxiv" in value.lower() and find_arxiv_id(value):
            arxiv = find_arxiv_id(value) or ""
    if doi and arxiv_id_from_doi(doi):
        arxiv, doi = arxiv or arxiv_id_from_doi(doi) or "", ""
    venue = _first(entry, "secondary_title", "journal_name", "alternate_title3", "publisher")
    kind = KIND_BY_TYPE.get(_first(entry, "type_of_reference").upper(), SourceKind.PAPER)
    if arxiv and (not venue or venue.lower().startswith("arxiv")) and kind in (SourceKind.PAPER, SourceKind.BLOG):
        kind = SourceKind.PREPRINT
    if kind == SourceKind.BLOG and urls and is_repository_url(urls[0]):
        kind = SourceKind.PROJECT
    if arxiv and venue.lower().startswith("arxiv"):
        venue = "arXiv"  # a venue is never made up from the identifier alone
    abstract = _first(entry, "abstract", "notes_abstract")
    authors = [_person(str(a)) for name in ("authors", "first_authors") for a in entry.get(name, []) or []]
    key = _first(entry, "id")
    entry_type = _entry_type(entry)
    draft = SourceDraft(
        title=title, short_name=short_name_from_title(title) if title else key, kind=kind,
        authors="; ".join(a for a in authors if a), year=year,
        venue=venue,
        url=urls[0] if urls else "",
        arxiv_id=arxiv, doi=doi, bibtex_key=key, abstract=abstract, notes=_notes(entry),
        entry_type=entry_type, bibliographic=_bibliographic(entry, entry_type, venue),
        # KW a line each, as BibTeX's keywords list them; LA as written
        extra_fields=fitting({name: value for name, value in (("keywords", ", ".join(_all(entry, "keywords"))),
                                                              ("language", _first(entry, "language"))) if value},
                             warnings),
    )
    return checked_draft(draft, errors, warnings)


def _all(entry: dict[str, Any], name: str) -> list[str]:
    values = entry.get(name) or []
    return [text for value in (values if isinstance(values, list) else [values]) if (text := collapse_spaces(str(value)))]


def _person(name: str) -> str:
    """An author as the wiki keeps one (``唐, 杰`` is 唐杰, as a Chinese name is written)."""
    family, comma, given = collapse_spaces(name).partition(",")
    return person_name(family, given) if comma else family


def _entry_type(entry: dict[str, Any]) -> str:
    entry_type = ENTRY_TYPE_BY_TYPE.get(_first(entry, "type_of_reference").upper(), "")
    return thesis_entry_type(_first(entry, "type_of_work")) if entry_type == "thesis" else entry_type


def _bibliographic(entry: dict[str, Any], entry_type: str, venue: str) -> dict[str, str]:
    """Pages (SP and EP, joined by an en dash as BibTeX's ``--`` reads), volume, issue, edition, series, publisher and
    its place, ISBN or ISSN and month, by BibTeX's names; the publisher only where it is not the venue already."""
    start, end = _first(entry, "start_page"), _first(entry, "end_page")
    details = {
        "pages": f"{start}–{end}" if start and end and end != start else start or end,
        "volume": _first(entry, "volume"), "number": _first(entry, "number"), "edition": _first(entry, "edition"),
        "series": _first(entry, "tertiary_title"), "address": _first(entry, "place_published"),
        "publisher": publisher if (publisher := _first(entry, "publisher")) != venue else "",
        "isbn" if entry_type in _BOOKS else "issn": _first(entry, "issn"),
        "month": month_of(_first(entry, "date")) or month_of(_first(entry, "year")),
    }
    return {name: value for name, value in details.items() if value}


def _notes(entry: dict[str, Any]) -> str:
    """N1, Zotero's notes written as HTML paragraphs: their text, a paragraph each."""
    notes = entry.get("notes") or []
    paragraphs = [html.unescape(nh3.clean(part, tags=set())).strip()
                  for note in (notes if isinstance(notes, list) else [notes])
                  for part in re.split(r"</p>\s*<p>|\n\s*\n", str(note))]
    return "\n\n".join(paragraph for paragraph in paragraphs if paragraph)


def _records(text: str) -> list[tuple[int, str]]:
    """Each record's first line and text, from its ``TY  -`` to the next one: a record whose ``ER  -`` is missing
    ends where the next begins (rispy would merge the two, or drop the last), and is given its ``ER``."""
    starts = [match.start() for match in _START.finditer(text)]
    records = []
    for index, start in enumerate(starts):
        chunk = text[start:starts[index + 1] if index + 1 < len(starts) else len(text)]
        if not _END.search(chunk):
            chunk = chunk.rstrip("\r\n") + "\nER  - \n"
        records.append((text.count("\n", 0, start) + 1, chunk))
    return records


def parse_ris(text: str) -> list[ParsedEntry]:
    """Every record of a RIS file, from ``TY  -`` to ``ER  -`` or the next ``TY  -``."""
    text = text.lstrip("\ufeff")
    parsed = []
    for number, (line, chunk) in enumerate(_records(text), start=1):
        label = gettext("record %(number)s") % {"number": number}
        try:
            found = rispy.loads(chunk, skip_unknown_tags=True, enforce_list_tags=False)
        except Exception as error:  # noqa: BLE001 - rispy raises plain IOError/ValueError/KeyError on a malformed record
            parsed.append(ParsedEntry(line=line, label=label, errors=[gettext("not RIS: %(error)s") % {"error": error}],
                                      raw=chunk.strip()))
            continue
        for record in found:
            draft, errors, warnings = draft_from_record(record)
            parsed.append(ParsedEntry(line=line, label=_first(record, "id") or label, draft=draft, errors=errors,
                                      warnings=warnings, raw=chunk.strip()))
    return parsed
