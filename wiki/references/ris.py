"""RIS (EndNote, Zotero, Mendeley, publishers' “export citation”) read by rispy into drafts."""

from __future__ import annotations

import re
from typing import Any

import rispy
from django.utils.translation import gettext

from wiki.models import SourceKind
from wiki.references.bibtex import ParsedEntry
from wiki.references.draft import SourceDraft, draft_errors, short_name_from_title
from wiki.references.identifiers import arxiv_id_from_doi, find_arxiv_id, normalize_doi
from wiki.text.spaces import collapse_spaces

KIND_BY_TYPE = {
    "JOUR": SourceKind.PAPER, "JFULL": SourceKind.PAPER, "CONF": SourceKind.PAPER, "CPAPER": SourceKind.PAPER,
    "CHAP": SourceKind.PAPER, "BOOK": SourceKind.PAPER, "THES": SourceKind.PAPER, "RPRT": SourceKind.PREPRINT,
    "UNPB": SourceKind.PREPRINT, "PREPRINT": SourceKind.PREPRINT, "GEN": SourceKind.PREPRINT, "MANSCPT": SourceKind.PREPRINT,
    "ELEC": SourceKind.BLOG, "BLOG": SourceKind.BLOG, "WEB": SourceKind.BLOG, "COMP": SourceKind.PROJECT,
    "DATA": SourceKind.PROJECT,
}
_START = re.compile(r"^TY  - ", re.MULTILINE)
_END = re.compile(r"^ER  -", re.MULTILINE)
_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|2\d\d\d)(?!\d)")


def _first(entry: dict[str, Any], *names: str) -> str:
    for name in names:
        value = entry.get(name)
        if isinstance(value, list):
            value = value[0] if value else ""
        if value:
            return collapse_spaces(str(value))
    return ""


def draft_from_record(entry: dict[str, Any]) -> tuple[SourceDraft, list[str]]:
    errors: list[str] = []
    title = _first(entry, "title", "primary_title", "translated_title")
    if not title:
        errors.append(gettext("no title"))
    raw_year = _first(entry, "year", "publication_year", "date")
    match = _YEAR.search(raw_year)
    if raw_year and not match:
        errors.append(gettext("year “%(value)s” is not a year") % {"value": raw_year})
    raw_doi = _first(entry, "doi")
    doi = normalize_doi(raw_doi) or ""
    if raw_doi and not doi:
        errors.append(gettext("DOI “%(value)s” is not a DOI") % {"value": raw_doi})
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
    if arxiv and venue.lower().startswith("arxiv"):
        venue = "arXiv"  # a venue is never made up from the identifier alone
    abstract = _first(entry, "abstract", "notes_abstract")
    authors = [collapse_spaces(str(a)) for name in ("authors", "first_authors") for a in entry.get(name, []) or []]
    key = _first(entry, "id")
    draft = SourceDraft(
        title=title, short_name=short_name_from_title(title) if title else key, kind=kind,
        authors="; ".join(a for a in authors if a), year=int(match.group(1)) if match else None,
        venue=venue,
        url=urls[0] if urls else "",
        arxiv_id=arxiv, doi=doi, bibtex_key=key, abstract=abstract,
    )
    return draft, errors + draft_errors(draft)


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
            draft, errors = draft_from_record(record)
            parsed.append(ParsedEntry(line=line, label=_first(record, "id") or label, draft=draft, errors=errors,
                                      raw=chunk.strip()))
    return parsed
