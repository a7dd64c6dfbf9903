"""Web of Science's plain-text export ("Export → Plain text file", a ``.txt`` or ``.ciw``), read by rispy's WoK reader
into drafts as RIS records are read.

A file opens with ``FN`` and ``VR`` lines and ends with ``EF``; a record runs from ``PT`` (J a journal, B a book, S a
series, C conference proceedings, P a patent) to ``ER``, a tag and a space heading each field, a value's next lines
set in by three spaces (one author a line under ``AU``/``AF``; a title's or an abstract's next lines continuing it).
The full names (``AF``) are the authors, else the abbreviated ones (``AU``); ``SO`` is the venue, ``DI`` the DOI,
``DE`` the authors' keywords; the record's ``UT`` (``WOS:…``) is no key a reference manager keeps.
"""

from __future__ import annotations

import re
from typing import Any

import rispy
from django.utils.translation import gettext

from wiki.references.bibtex import ParsedEntry
from wiki.references.draft import month_number
from wiki.references.ris import draft_from_record, field_lines

_START = re.compile(r"^PT [A-Z]", re.MULTILINE)
# A file Web of Science wrote: its header, or a record's first tag, on the first line that is not blank.
_HEAD = re.compile(r"\A\s*(?:FN |VR |PT [A-Z]\s*$)", re.MULTILINE)
# The RIS type a record's publication type (PT) or document type (DT) is read as.
_TYPE_BY_PT = {"J": "JOUR", "B": "BOOK", "S": "CHAP", "C": "CONF", "P": "GEN"}
_CONFERENCE_DOCUMENT = re.compile(r"proceedings paper", re.IGNORECASE)
# The wiki's fields each tag gives, for the line a problem with one is on.
_FIELD_BY_TAG = {"TI": "title", "AU": "authors", "AF": "authors", "PY": "year", "SO": "venue", "AB": "abstract",
                 "VL": "volume", "IS": "number", "BP": "pages"}
_TAG_LINE = re.compile(r"^([A-Z][A-Z0-9]) ", re.MULTILINE)
# Chinese (and Japanese) characters and punctuation, which a line break inside a value parts with no space.
_CJK = "\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef"
_CJK_BREAK = re.compile(f"[{_CJK}]{{2}}")


class _Parser(rispy.WokParser):  # type: ignore[misc]  # rispy has no type hints
    """rispy's WoK reader, a value's next line joined to a Chinese line with no space between them, as the text was
    written before Web of Science wrapped it."""

    def _add_tag(self, record: dict[str, Any], tag: str, content: str, extend_multiline: bool = False) -> None:
        name = self.mapping.get(tag)
        before = record.get(name) if extend_multiline and name is not None else None
        super()._add_tag(record, tag, content, extend_multiline)
        if isinstance(before, str) and _CJK_BREAK.match(before[-1:] + content[:1]):
            record[name] = before + content


def is_wos(text: str) -> bool:
    """Whether ``text`` is a Web of Science plain-text export: it opens with ``FN``/``VR``, or a record's ``PT``."""
    return bool(_HEAD.match(text.lstrip("\ufeff")))


def count_records(text: str) -> int:
    return len(_START.findall(text))


def _list(value: Any) -> list[str]:
    return [str(v) for v in (value if isinstance(value, list) else [value]) if v]


def _as_ris(record: dict[str, Any]) -> dict[str, Any]:
    """The record under the names rispy gives a RIS record, for :func:`~wiki.references.ris.draft_from_record`."""
    document = " ".join(_list(record.get("document_type")))
    ris_type = "CONF" if _CONFERENCE_DOCUMENT.search(document) else _TYPE_BY_PT.get(str(record.get("publication_type", "")), "JOUR")
    # the month of its publication date (``MAR``, ``MAR 15``), which the year goes with
    month = month_number(str(record.get("publication_date", "")).split(" ", 1)[0])
    year = str(record.get("publication_year", ""))
    keywords = [word.strip() for text in _list(record.get("author_keywords")) for word in text.split(";") if word.strip()]
    fields = {
        "type_of_reference": ris_type, "title": record.get("document_title"),
        "authors": _list(record.get("author_full_name")) or _list(record.get("authors")),
        "secondary_title": record.get("publication_name"), "year": record.get("publication_year"),
        "date": f"{year}-{int(month):02d}" if year and month.isdigit() else "", "doi": record.get("doi"), "abstract": record.get("abstract"),
        "volume": record.get("volume"), "number": record.get("issue"), "start_page": record.get("beginning_page"),
        "end_page": record.get("ending_page"), "publisher": record.get("publisher"),
        "place_published": record.get("publisher_city"), "issn": record.get("issn") or record.get("isbn"),
        "language": record.get("language"), "keywords": keywords,
        "tertiary_title": record.get("book_series_title"),
    }
    return {name: value for name, value in fields.items() if value}


def parse_wos(text: str) -> list[ParsedEntry]:
    """Every record of a Web of Science export, from ``PT`` to ``ER`` (or the next ``PT``), with the line it starts on."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n")
    starts = [match.start() for match in _START.finditer(text)]
    parsed = []
    for number, start in enumerate(starts, start=1):
        chunk = text[start:starts[number] if number < len(starts) else len(text)]
        line = text.count("\n", 0, start) + 1
        label = gettext("record %(number)s") % {"number": number}
        if not re.search(r"^ER\s*$", chunk, re.MULTILINE):
            chunk = chunk.rstrip("\n") + "\nER\n"  # a record whose ER is missing ends where the next begins
        try:
            found = rispy.loads(chunk, implementation=_Parser, skip_unknown_tags=True)
        except Exception as error:  # noqa: BLE001 - rispy raises plain IOError/ValueError/KeyError on a malformed record
            parsed.append(ParsedEntry(line=line, label=label, errors=[gettext("not Web of Science: %(error)s") % {"error": error}],
                                      raw=chunk.strip()))
            continue
        for record in found:
            draft, errors, warnings = draft_from_record(_as_ris(record))
            # its accession number (WOS:…) names the record in the report
            parsed.append(ParsedEntry(line=line, label=str(record.get("accession_number") or label), draft=draft,
                                      errors=errors, warnings=warnings, raw=chunk.strip(),
                                      field_lines=field_lines(chunk, line, tags=_TAG_LINE, field_by_tag=_FIELD_BY_TAG)))
    return parsed
