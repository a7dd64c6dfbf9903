"""RIS (EndNote, Zotero, Mendeley, publishers' “export citation”) read by rispy into drafts.

A value may run over several lines, as Zotero and EndNote write an abstract or a note: the lines that follow a tag's
line without a tag of their own continue it, a blank one parting paragraphs. Zotero's "Extra" field (``M2``) may say
in ``tex.<field>: value`` lines, as Better BibTeX reads them, what RIS has no tag for: the BibTeX entry type
(``tex.entrytype``), the wiki's kind of work (``tex.entrysubtype``, as the BibTeX export writes it), a
bibliographic detail by BibTeX's name (``tex.organization``), and the authors as BibTeX's author field (``tex.author=
… and others``, a list that goes on past the AU lines); the wiki's RIS export writes them there
(:mod:`wiki.references.ris_export`).
"""

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
    BIBLIOGRAPHIC_FIELDS,
    ENTRY_TYPE_LABELS,
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
from wiki.references.errors import FieldProblem
from wiki.references.extra_fields import fitting
from wiki.references.identifiers import arxiv_id_alone, arxiv_id_from_doi, find_arxiv_id
from wiki.references.names import from_bibtex
from wiki.text.spaces import collapse_spaces, collapse_spaces_in_paragraphs

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
BOOK_TYPES = frozenset({"book", "collection", "incollection"})
_START = re.compile(r"^TY  - ", re.MULTILINE)
_END = re.compile(r"^ER  -", re.MULTILINE)
# Zotero's "Extra" (not in RIS's own list of tags), and a line of it naming a BibTeX field.
TAGS = {**rispy.TAG_KEY_MAPPING, "M2": "extra"}
# The wiki's fields (and BibTeX's year) each tag gives, for the line a problem with one is on.
_FIELD_BY_TAG = {"TI": "title", "T1": "title", "AU": "authors", "A1": "authors", "PY": "year", "Y1": "year", "DA": "year",
                 "UR": "url", "T2": "venue", "JO": "venue", "JF": "venue", "AB": "abstract", "N2": "abstract",
                 "N1": "notes", "ST": "short_name", "ID": "bibtex_key", "SP": "pages", "VL": "volume", "IS": "number"}
_TAG_LINE = re.compile(r"^([A-Z][A-Z0-9])  -", re.MULTILINE)
_EXTRA_LINE = re.compile(r"^tex\.(?P<name>[a-z]+)\s*:\s*(?P<value>.*?)\s*$", re.IGNORECASE | re.MULTILINE)
# Better BibTeX's author field in Extra, as BibTeX writes it ("=": raw LaTeX; ":" text): a list that goes on past the
# names the AU lines give, ``… and others``.
_EXTRA_AUTHORS = re.compile(r"^tex\.author\s*[:=]\s*(?P<value>.*?)\s*$", re.IGNORECASE | re.MULTILINE)


class _Parser(rispy.RisParser):  # type: ignore[misc]  # rispy has no type hints
    """rispy's reader, a value's next lines kept as lines: joined by a line break, not a space, so that an abstract's
    or a note's paragraphs survive; a note's next lines continue that note rather than start another."""

    def _add_tag(self, record: dict[str, Any], tag: str, content: str, extend_multiline: bool = False) -> None:
        name = self.mapping.get(tag)
        if not extend_multiline or name is None or name not in record:
            super()._add_tag(record, tag, content, extend_multiline)
            return
        value = record[name]
        if isinstance(value, list) and value:
            value[-1] = f"{value[-1]}\n{content}"
        elif isinstance(value, str):
            record[name] = f"{value}\n{content}"


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
        errors.append(FieldProblem(gettext("year “%(value)s” is not a year") % {"value": raw_year}, field="year"))
    doi = doi_or_warning(_first(entry, "doi"), warnings)
    urls = [str(url) for url in entry.get("urls", []) or []]
    arxiv = next((find_arxiv_id(url) or "" for url in urls if "arxiv.org" in url.lower()), "")
    for name in ("accession_number", "journal_name", "secondary_title", "number", "publisher"):
        value = _first(entry, name)
        if not arxiv and "arxiv" in value.lower() and find_arxiv_id(value):
            arxiv = find_arxiv_id(value) or ""
    notes = _notes(entry)
    # A note names the work's arXiv ID when it is that ID alone (Zotero's "arXiv:2210.03629 [cs]"), as in BibTeX.
    if arxiv_id_alone(notes):
        arxiv, notes = arxiv or arxiv_id_alone(notes) or "", ""
    if doi and arxiv_id_from_doi(doi):
        arxiv, doi = arxiv or arxiv_id_from_doi(doi) or "", ""
    venue = _first(entry, "secondary_title", "journal_name", "alternate_title3", "publisher")
    extra = _extra(entry)
    kind = extra.pop("entrysubtype", "") or kind_of_record(_first(entry, "type_of_reference"), arxiv=arxiv, venue=venue,
                                                             url=urls[0] if urls else "")
    if arxiv and venue.lower().startswith("arxiv"):
        venue = "arXiv"  # a venue is never made up from the identifier alone
    abstract = collapse_spaces_in_paragraphs(str(_values(entry, "abstract") or _values(entry, "notes_abstract")))
    authors = [_person(str(a)) for name in ("authors", "first_authors") for a in entry.get(name, []) or []]
    if written := _extra_authors(entry):
        authors = [written]
    key = _first(entry, "id")
    entry_type = extra.pop("entrytype", "") or _entry_type(entry)
    issue = extra.pop("issue", "")
    # Zotero's and EndNote's short title is the work's short name, as BibTeX's shorttitle and CSL's title-short are.
    short_name = _first(entry, "short_title") or (short_name_from_title(title) if title else key)
    draft = SourceDraft(
        title=title, short_name=short_name, kind=kind,
        authors="; ".join(a for a in authors if a), year=year,
        venue=venue,
        url=urls[0] if urls else "",
        arxiv_id=arxiv, doi=doi, bibtex_key=key, abstract=abstract, notes=notes,
        entry_type=entry_type, bibliographic={**_bibliographic(entry, entry_type, venue), **extra},
        # KW a line each, as BibTeX's keywords list them; LA as written
        extra_fields=fitting({name: value for name, value in (("keywords", ", ".join(_all(entry, "keywords"))),
                                                              ("language", _first(entry, "language")),
                                                              ("issue", issue)) if value},
                             warnings),
    )
    return checked_draft(draft, errors, warnings)


def _all(entry: dict[str, Any], name: str) -> list[str]:
    values = entry.get(name) or []
    return [text for value in (values if isinstance(values, list) else [values]) if (text := collapse_spaces(str(value)))]


def kind_of_record(type_of_reference: str, *, arxiv: str, venue: str, url: str) -> str:
    """The kind a RIS type says; a paper or post with an arXiv ID and no other venue than arXiv is a preprint, a web
    page on a code host a project."""
    kind = KIND_BY_TYPE.get(type_of_reference.upper(), SourceKind.PAPER)
    if arxiv and (not venue or venue.lower().startswith("arxiv")) and kind in (SourceKind.PAPER, SourceKind.BLOG):
        return SourceKind.PREPRINT
    if kind == SourceKind.BLOG and url and is_repository_url(url):
        return SourceKind.PROJECT
    return kind


def _values(entry: dict[str, Any], name: str) -> str:
    """A tag's value as written, its lines kept (the first, when the tag was repeated)."""
    value = entry.get(name)
    if isinstance(value, list):
        value = value[0] if value else ""
    return str(value or "")


def _extra(entry: dict[str, Any]) -> dict[str, str]:
    """What Zotero's "Extra" (``M2``) says in ``tex.<field>: value`` lines of the BibTeX entry type (``entrytype``), the
    kind (``entrysubtype``), the bibliographic details by BibTeX's names and biblatex's ``issue`` (RIS's ``IS`` being
    BibTeX's ``number``); a name or value the wiki does not keep is
    left out."""
    extra = entry.get("extra") or []
    found: dict[str, str] = {}
    for text in extra if isinstance(extra, list) else [extra]:
        for line in _EXTRA_LINE.finditer(str(text)):
            name, value = line["name"].lower(), collapse_spaces(line["value"])
            if (name == "entrytype" and value in ENTRY_TYPE_LABELS) or (name == "entrysubtype" and value in SourceKind.values) \
                    or (name in (*BIBLIOGRAPHIC_FIELDS, "issue") and value):
                found.setdefault(name, value)
    return found


def _extra_authors(entry: dict[str, Any]) -> str:
    """The authors Zotero's "Extra" gives as BibTeX's author field (``tex.author= Doe, Jane and others``), as the wiki
    keeps them; empty when it gives none."""
    extra = entry.get("extra") or []
    for text in extra if isinstance(extra, list) else [extra]:
        if found := _EXTRA_AUTHORS.search(str(text)):
            return from_bibtex(found["value"])
    return ""


def _person(name: str) -> str:
    """An author as the wiki keeps one (``唐, 杰`` is 唐杰, as a Chinese name is written)."""
    family, comma, given = collapse_spaces(name).partition(",")
    return person_name(family, given) if comma else family


def _entry_type(entry: dict[str, Any]) -> str:
    entry_type = ENTRY_TYPE_BY_TYPE.get(_first(entry, "type_of_reference").upper(), "")
    return thesis_entry_type(_first(entry, "type_of_work")) if entry_type == "thesis" else entry_type


def _bibliographic(entry: dict[str, Any], entry_type: str, venue: str) -> dict[str, str]:
    """Pages (SP and EP, joined by an en dash as BibTeX's ``--`` reads), volume, issue, edition, series, publisher and
    its place, ISBN or ISSN and month, by BibTeX's names; the publisher only where it is not the venue already; an
    article's journal (T2, JO or JF, as written), as BibTeX's ``journal`` gives it."""
    start, end = _first(entry, "start_page"), _first(entry, "end_page")
    details = {
        "journal": _first(entry, "secondary_title", "journal_name", "alternate_title3") if entry_type == "article" else "",
        "pages": f"{start}–{end}" if start and end and end != start else start or end,
        "volume": _first(entry, "volume"), "number": _first(entry, "number"), "edition": _first(entry, "edition"),
        "series": _first(entry, "tertiary_title"), "address": _first(entry, "place_published"),
        "publisher": publisher if (publisher := _first(entry, "publisher")) != venue else "",
        "isbn" if entry_type in BOOK_TYPES else "issn": _first(entry, "issn"),
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


def field_lines(chunk: str, first: int, *, tags: re.Pattern[str] = _TAG_LINE,
                field_by_tag: dict[str, str] = _FIELD_BY_TAG) -> dict[str, int]:
    """The line of the tag each of the wiki's fields is first given by in a record starting on line ``first``
    (``tags`` finds a tagged line, its tag as group 1; ``field_by_tag`` names the field a tag gives: RIS's by default,
    Web of Science's for its exports)."""
    lines: dict[str, int] = {}
    for match in tags.finditer(chunk):
        if name := field_by_tag.get(match[1]):
            lines.setdefault(name, first + chunk.count("\n", 0, match.start()))
    return lines


def parse_ris(text: str) -> list[ParsedEntry]:
    """Every record of a RIS file, from ``TY  -`` to ``ER  -`` or the next ``TY  -``."""
    text = text.lstrip("\ufeff")
    parsed = []
    first_line: dict[str, int] = {}  # where each ID was first given: a repeated ID is refused, as a repeated BibTeX key is
    for number, (line, chunk) in enumerate(_records(text), start=1):
        label = gettext("record %(number)s") % {"number": number}
        try:
            found = rispy.loads(chunk, implementation=_Parser, mapping=TAGS, skip_unknown_tags=True,
                                enforce_list_tags=False)
        except Exception as error:  # noqa: BLE001 - rispy raises plain IOError/ValueError/KeyError on a malformed record
            parsed.append(ParsedEntry(line=line, label=label, errors=[gettext("not RIS: %(error)s") % {"error": error}],
                                      raw=chunk.strip()))
            continue
        for record in found:
            draft, errors, warnings = draft_from_record(record)
            key = _first(record, "id")
            parsed.append(ParsedEntry(line=line, label=key or label, draft=draft, errors=errors, warnings=warnings,
                                      raw=chunk.strip(), repeats=first_line.get(key),
                                      field_lines=field_lines(chunk, line)))
            if key:
                first_line.setdefault(key, line)
    return parsed
