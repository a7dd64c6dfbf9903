"""CSL-JSON (Zotero's and Pandoc's format) read into drafts, and written from sources.

An item names its identifiers in ``DOI``, ``URL``, ``number`` (Zotero puts ``arXiv:2210.03629`` there for a
preprint) or ``archive``/``archive_location``; its date in ``issued`` as ``date-parts`` or ``raw``.

The wiki writes each work's notes as ``note``, and its kind, when the CSL type alone does not say it (a survey,
a benchmark, a framework), in CSL's ``custom`` object as ``wiki-kind`` (and biblatex's ``issue``, which CSL's
``issue``, BibTeX's ``number``, is not, as ``wiki-issue``, and which of its name lists go on past the names they give,
BibTeX's ``and others``, as ``wiki-et-al``); titles are written as CSL rich text
whose markup and entities stand for themselves, so that the reader gives back the same works.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable
from typing import Any

from bibtexparser.middlewares.names import split_multiple_persons_names
from django.utils.translation import gettext

from wiki.json_depth import MAX_DEPTH, depth_of
from wiki.models import Source, SourceKind
from wiki.references.bibtex import ParsedEntry
from wiki.references.citation_keys import citation_keys
from wiki.references.draft import (
    SourceDraft,
    checked_draft,
    doi_or_warning,
    find_year,
    is_repository_url,
    month_of,
    short_name_from_title,
    thesis_entry_type,
)
from wiki.references.errors import ReferencesRefused
from wiki.references.extra_fields import csl_lists_going_on, csl_variables, extra_from_csl, fitting
from wiki.references.identifiers import arxiv_id_alone, arxiv_id_from_doi, find_arxiv_id
from wiki.references.names import csl_names, goes_on, names_from_csl
from wiki.references.parse_errors import json_reason
from wiki.text.spaces import collapse_spaces, collapse_spaces_in_paragraphs

KIND_BY_TYPE = {
    "article-journal": SourceKind.PAPER, "paper-conference": SourceKind.PAPER, "chapter": SourceKind.PAPER,
    "book": SourceKind.PAPER, "thesis": SourceKind.PAPER, "article": SourceKind.PREPRINT, "report": SourceKind.PREPRINT,
    "manuscript": SourceKind.PREPRINT, "post-weblog": SourceKind.BLOG, "post": SourceKind.BLOG, "webpage": SourceKind.BLOG,
    "software": SourceKind.PROJECT, "dataset": SourceKind.PROJECT,
}
TYPE_BY_KIND: dict[str, str] = {
    SourceKind.PAPER: "article-journal", SourceKind.PREPRINT: "article", SourceKind.PROJECT: "software",
    SourceKind.BLOG: "post-weblog", SourceKind.NOTE: "report", SourceKind.SURVEY: "article-journal",
    SourceKind.ENVIRONMENT: "software", SourceKind.FRAMEWORK: "software",
}
# A BibTeX entry type as CSL names it, and back (the type a work was imported as: wiki.references.draft).
CSL_TYPE_BY_ENTRY_TYPE = {
    "article": "article-journal", "inproceedings": "paper-conference", "conference": "paper-conference",
    "incollection": "chapter", "inbook": "chapter", "book": "book", "phdthesis": "thesis", "mastersthesis": "thesis",
    "thesis": "thesis", "techreport": "report", "report": "report",
    # a volume as a whole, as citeproc-js and Better BibTeX write one: CSL has no proceedings
    "proceedings": "book", "mvproceedings": "book", "collection": "book", "mvcollection": "book", "mvbook": "book",
}
ENTRY_TYPE_BY_CSL_TYPE = {
    "article-journal": "article", "paper-conference": "inproceedings", "chapter": "incollection", "book": "book",
    "thesis": "thesis", "report": "techreport",
}
# A work's bibliographic details (by BibTeX's names) as CSL names them; CSL's "number" is the arXiv ID here.
CSL_FIELD_BY_BIBLIOGRAPHIC = {
    "volume": "volume", "number": "issue", "pages": "page", "series": "collection-title", "edition": "edition",
    "chapter": "chapter-number", "publisher": "publisher", "address": "publisher-place", "isbn": "ISBN", "issn": "ISSN",
}
# What a thesis' entry type says of its degree, as CSL's ``genre`` (read back by wiki.references.draft.thesis_entry_type).
GENRE_BY_ENTRY_TYPE = {"phdthesis": "PhD thesis", "mastersthesis": "Master's thesis"}
# The types whose venue CSL calls the publisher: a work printed on its own, in no container.
_PUBLISHED_WHOLE = frozenset({"book", "report", "thesis"})
# The entry types of volumes whose venue is their own booktitle (a conference's), kept as the container CSL reads it
# back from; their publisher is the publisher.
_VOLUMES = frozenset({"proceedings", "mvproceedings", "collection", "mvcollection"})
# Where the wiki writes a work's kind: in CSL 1.0.2's ``custom`` object, which styles do not print.
KIND_FIELD = "wiki-kind"
# And its BibTeX entry type, where the CSL type would read back as another (@proceedings as "book", @inbook as
# "chapter", which is @incollection).
ENTRY_TYPE_FIELD = "wiki-entry-type"
# And biblatex's ``issue`` (``Spring``, a special issue's name), kept among its other fields: CSL's ``issue`` is
# BibTeX's ``number``, which Zotero and the importer read it as.
ISSUE_FIELD = "wiki-issue"
# And its number where that is its issue too (``3`` both): CSL's ``issue`` equal to ``wiki-issue`` is otherwise the
# issue alone, written for styles to print where the work has no number.
NUMBER_FIELD = "wiki-number"
# And the name variables whose list goes on past the names it gives (``["author"]``), BibTeX's ``and others``: CSL has
# no name for it, and one called "others" would be printed as an author.
ET_AL_FIELD = "wiki-et-al"
_ENTRY_TYPE_NAME = re.compile(r"[a-z]+")
# Entry types that are others' names in biblatex or in old BibTeX, read back as those.
ENTRY_TYPE_SYNONYMS = {"report": "techreport", "conference": "inproceedings"}
# CSL's rich-text markup (citeproc-js, Zotero): <i>, <b>, <sc>, <sup>, <sub> and <span class="nocase"> or
# style="…"; any other "<…>" is text of the title (a title may speak of <angle> brackets).
_RICH_TEXT_TAG = re.compile(r"</?(?:i|b|sc|sup|sub)>|<span(?:\s+(?:class|style)=\"[^\"<>]*\")*\s*>|</span>", re.IGNORECASE)


def _starts_reference(text: str, index: int) -> bool:
    """Whether the ``&`` at ``index`` starts what html.unescape decodes (``&amp;``, ``&#38;``, ``&copy`` without a
    semicolon): a reference holds no other ``&``, so the text up to the next one tells."""
    chunk = "&" + text[index + 1 :].split("&", 1)[0]
    return html.unescape(chunk) != chunk


def rich_text_escaped(text: str) -> str:
    """``text`` as CSL rich text that :func:`_rich_text` reads back unchanged: an ``&`` that would start a character
    reference, and the ``<`` and ``>`` of what would be read as markup, are escaped; every other character is kept
    as it is, for readers that do not decode entities."""
    text = re.sub("&", lambda m: "&amp;" if _starts_reference(text, m.start()) else "&", text)
    return _RICH_TEXT_TAG.sub(lambda m: m.group().replace("<", "&lt;").replace(">", "&gt;"), text)


def _text(value: Any) -> str:
    return collapse_spaces(str(value)) if isinstance(value, (str, int, float)) else ""


def _paragraphs(value: Any) -> str:
    """An abstract or a note: its paragraphs (parted by a blank line) kept, the spaces within each folded."""
    return collapse_spaces_in_paragraphs(str(value)) if isinstance(value, (str, int, float)) else ""


def _rich_text(value: Any) -> str:
    """A title or container title as plain text: CSL's rich-text markup (``<i>``, ``<b>``, ``<sup>``,
    ``<span class="nocase">``) removed and entities (``&amp;``) decoded."""
    return _text(html.unescape(_RICH_TEXT_TAG.sub("", value))) if isinstance(value, str) else _text(value)


def _year(item: dict[str, Any], errors: list[str]) -> int | None:
    issued = item.get("issued")
    if isinstance(issued, dict):
        parts = issued.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            try:
                return int(parts[0][0])
            except (TypeError, ValueError, OverflowError):  # OverflowError: 1e400 and Infinity, read as float("inf")
                errors.append(gettext("issued date “%(value)s” is not a year") % {"value": parts[0][0]})
                return None
        raw = _text(issued.get("raw") or issued.get("literal") or "")
        year = find_year(raw)
        if year is not None:
            return year
        if raw:
            errors.append(gettext("issued date “%(value)s” is not a year") % {"value": raw})
    return None


def _kind(csl_type: str, arxiv: str, venue: str, url: str = "") -> str:
    """The kind a CSL type says; a paper or post with an arXiv ID and no other venue than arXiv is a preprint, a web
    page on a code host a project."""
    kind = KIND_BY_TYPE.get(csl_type, SourceKind.PAPER)
    if arxiv and (not venue or venue.lower().startswith("arxiv")) and kind in (SourceKind.PAPER, SourceKind.BLOG):
        return SourceKind.PREPRINT
    if kind == SourceKind.BLOG and is_repository_url(url):
        return SourceKind.PROJECT
    return kind


# The string variables read: CSL-JSON gives each as one string (a number does for a string too).
_STRINGS = ("title", "title-short", "DOI", "URL", "container-title", "event-title", "publisher", "abstract", "note")


def _not_strings(item: dict[str, Any]) -> list[str]:
    """Why the item's string variables cannot be read: each given as a list or an object (``"DOI": ["10.1/a"]``),
    named with what it holds, rather than read as nothing."""
    return [gettext("%(field)s is %(value)s, not one string as CSL-JSON gives it") % {
                "field": name, "value": json.dumps(item[name], ensure_ascii=False)[:200]}
            for name in _STRINGS if isinstance(item.get(name), (list, dict, bool))]


def draft_from_item(item: dict[str, Any]) -> tuple[SourceDraft, list[str], list[str]]:
    """A draft from one CSL-JSON item; the errors that refuse it, and the warnings of what was left out to import it."""
    errors: list[str] = _not_strings(item)
    warnings: list[str] = []
    title = _rich_text(item.get("title", ""))
    if not title and not errors:
        errors.append(gettext("no title"))
    doi = doi_or_warning(_text(item.get("DOI", "")), warnings)
    url = _text(item.get("URL", ""))
    arxiv = ""
    for name in ("number", "archive_location", "URL", "note", "container-title", "publisher"):
        value = _text(item.get(name, ""))
        # A note names the work's arXiv ID when it is that ID alone (Zotero's "arXiv:2210.03629 [cs]").
        found = arxiv_id_alone(value) if name == "note" else find_arxiv_id(value) if "arxiv" in value.lower() else None
        if found:
            arxiv = found
            break
    if doi and arxiv_id_from_doi(doi):
        arxiv, doi = arxiv or arxiv_id_from_doi(doi) or "", ""
    venue = (_rich_text(item.get("container-title", "")) or _rich_text(item.get("event-title", ""))
             or _text(item.get("publisher", "")))
    kind = _kind(_text(item.get("type", "")), arxiv, venue, url)
    custom: dict[str, Any] = item["custom"] if isinstance(item.get("custom"), dict) else {}
    if _text(custom.get(KIND_FIELD, "")) in SourceKind.values:
        kind = _text(custom[KIND_FIELD])
    if arxiv and venue.lower().startswith("arxiv"):
        venue = "arXiv"  # "arXiv preprint arXiv:2503.01234"; a venue is never made up from the identifier alone
    persons = item.get("author") or item.get("editor") or []
    if isinstance(persons, str):
        # Not CSL (names are objects), but written by hand and by some tools: "Doe, John and Roe, Jane" or "Doe, John; Roe, Jane".
        persons = persons.split(";") if ";" in persons else split_multiple_persons_names(persons)
    going_on = _lists_going_on(custom)
    # the authors, else the editors standing for them (an author list of no name but "et al." is still the authors')
    named = "editor" if item.get("editor") and not item.get("author") else "author"
    authors = names_from_csl(persons, going_on=named in going_on) if isinstance(persons, list) else ""
    # Zotero's id is the item's URI (http://zotero.org/users/…/items/…), no citation key: the wiki's own is made then
    key = _text(item.get("citation-key") or "") or ("" if "://" in (found := _text(item.get("id") or "")) else found)
    note = _paragraphs(item.get("note", ""))
    issue = _text(custom.get(ISSUE_FIELD, ""))
    number_too = bool(issue) and _text(custom.get(NUMBER_FIELD, "")) == issue
    draft = SourceDraft(
        title=title, kind=kind,
        short_name=_rich_text(item.get("title-short", "")) or (short_name_from_title(title) if title else key),
        authors=authors, year=_year(item, errors), venue=venue,
        url=url, arxiv_id=arxiv, doi=doi, bibtex_key=key, abstract=_paragraphs(item.get("abstract", "")),
        notes="" if arxiv_id_alone(note) else note,
        entry_type=(written if _ENTRY_TYPE_NAME.fullmatch(written := _text(custom.get(ENTRY_TYPE_FIELD, "")).lower())
                    else _entry_type(item)),
        bibliographic=_bibliographic(item, venue, issue="" if number_too else issue),
        extra_fields=fitting(extra_from_csl(item, read=_read_variables(item, venue), going_on=going_on)
                             | ({"issue": issue} if issue else {}), warnings),
    )
    return checked_draft(draft, errors, warnings)


def _lists_going_on(custom: dict[str, Any]) -> frozenset[str]:
    """The name variables the item's ``custom`` says go on past the names they give (:data:`ET_AL_FIELD`)."""
    named = custom.get(ET_AL_FIELD)
    return frozenset(name for name in named if isinstance(name, str)) if isinstance(named, list) else frozenset()


def _read_variables(item: dict[str, Any], venue: str) -> frozenset[str]:
    """The variables of those the wiki keeps among a work's other fields that the work's own fields took already: the
    place and issue (its bibliographic details), a thesis' genre (its entry type), the event that was its venue, the
    editors when there were no authors."""
    read = {"publisher-place", "issue"}
    if _text(item.get("type", "")) == "thesis":
        read.add("genre")
    if not _rich_text(item.get("container-title", "")) and _rich_text(item.get("event-title", "")) == venue:
        read.add("event-title")
    if not item.get("author"):
        read.add("editor")
    return frozenset(read)


def _entry_type(item: dict[str, Any]) -> str:
    """The BibTeX entry type of the item's CSL type; a thesis' degree from its ``genre`` (``PhD thesis``)."""
    entry_type = ENTRY_TYPE_BY_CSL_TYPE.get(_text(item.get("type", "")), "")
    return thesis_entry_type(_text(item.get("genre", ""))) if entry_type == "thesis" else entry_type


def _bibliographic(item: dict[str, Any], venue: str, *, issue: str = "") -> dict[str, str]:
    """The item's details by BibTeX's names, with the month of its ``issued`` date (``[[2025, 3]]``, ``2025-03-14``);
    its publisher where it is not its venue already (a book's, a thesis'); its ``issue`` is no number where the wiki
    wrote it from biblatex's ``issue``; a journal article's ``container-title``, its journal, as BibTeX's ``journal``
    gives it."""
    details = {name: value for name, csl in CSL_FIELD_BY_BIBLIOGRAPHIC.items()
               if (value := _text(item.get(csl, ""))) and not (name == "publisher" and value == venue)
               and not (name == "number" and value == issue)}
    if _text(item.get("type", "")) == "article-journal" and (journal := _rich_text(item.get("container-title", ""))):
        details["journal"] = journal
    # a report's number (CSL's "number" is otherwise read as the arXiv ID)
    if _text(item.get("type", "")) == "report" and (number := _text(item.get("number", ""))) and not find_arxiv_id(number):
        details.setdefault("number", number)
    issued = item.get("issued")
    if isinstance(issued, dict):
        parts = issued.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and len(parts[0]) > 1:
            month = month_of(f"{_text(parts[0][0])}-{_text(parts[0][1])}") if _text(parts[0][0]).isdigit() else ""
        else:
            month = month_of(_text(issued.get("raw") or ""))
        if month:
            details["month"] = month
    return details


def _item_lines(text: str, count: int) -> list[int]:
    """The line where each top-level item of a JSON array starts (for the report), counted without a parser."""
    lines, depth, line, in_string, escaped = [], 0, 1, False, False
    for char in text:
        if char == "\n":
            line += 1
        if in_string:
            escaped, in_string = (not escaped and char == "\\"), in_string and (escaped or char != '"')
            continue
        if char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if char == "{" and depth == 2:
                lines.append(line)
        elif char in "]}":
            depth -= 1
    return lines + [0] * (count - len(lines))


def read_json(text: str) -> Any:
    """``text`` read as JSON; raises :class:`~wiki.references.errors.ReferencesRefused` for text that is not JSON,
    saying where, and for JSON nested deeper than :data:`~wiki.json_depth.MAX_DEPTH` levels or holding a number of
    more digits than Python reads, which no reference manager writes."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ReferencesRefused(gettext("Not JSON (line %(line)s, column %(column)s): %(error)s") % {
            "line": error.lineno, "column": error.colno, "error": json_reason(error.msg),
        }, code="not_json") from None
    except RecursionError:
        raise _too_deep() from None
    except ValueError:
        # Python refuses integers of more than sys.get_int_max_str_digits() digits.
        raise ReferencesRefused(gettext("Not JSON: a number has too many digits."), code="not_json") from None
    if depth_of(data) > MAX_DEPTH:
        raise _too_deep()
    return data


def _too_deep() -> ReferencesRefused:
    return ReferencesRefused(gettext("Not CSL-JSON: nested deeper than %(depth)s levels.") % {"depth": MAX_DEPTH},
                             code="too_deep")


def parse_csl_json(text: str) -> list[ParsedEntry]:
    """Every item of a CSL-JSON array (or a single item, or ``{"items": […]}``); raises
    :class:`~wiki.references.errors.ReferencesRefused` for text that is not JSON or not items that are objects."""
    data = read_json(text)
    if isinstance(data, dict):
        data = data.get("items", [data])
    if not isinstance(data, list):
        raise ReferencesRefused(gettext("A CSL-JSON file is an array of items."), code="not_csl_json")
    misfits = [number for number, item in enumerate(data, start=1) if not isinstance(item, dict)]
    if misfits:
        raise ReferencesRefused(
            gettext("A CSL-JSON item is a JSON object; these are not: %(items)s.")
            % {"items": ", ".join(str(number) for number in misfits[:10]) + ("…" if len(misfits) > 10 else "")},
            code="not_csl_json")
    lines = _item_lines(text, len(data)) if text.lstrip().startswith("[") else [1] * len(data)
    parsed = []
    first_line: dict[str, int] = {}  # where each id was first given: a repeated id is refused, as a repeated BibTeX key is
    for number, (item, line) in enumerate(zip(data, lines, strict=False), start=1):
        draft, errors, warnings = draft_from_item(item)
        item_id = _text(item.get("id", ""))
        parsed.append(ParsedEntry(line=line, label=item_id or gettext("item %(number)s") % {"number": number}, draft=draft,
                                  errors=errors, warnings=warnings, raw=json.dumps(item, ensure_ascii=False, indent=2),
                                  repeats=first_line.get(item_id)))
        if item_id:
            first_line.setdefault(item_id, line)
    return parsed


# The entry types an arXiv preprint comes as from reference managers, and the kinds of work one is.
_PREPRINT_ENTRY_TYPES = frozenset({"", "article", "misc", "unpublished", "online", "electronic", "www"})
_PREPRINT_KINDS = frozenset({SourceKind.PREPRINT, SourceKind.PAPER, SourceKind.SURVEY})


def is_arxiv_preprint(source: Source) -> bool:
    """Whether ``source`` is an arXiv preprint: an arXiv ID and no venue but arXiv, a paper's kind, and an entry type a
    preprint comes as (a report on arXiv stays a report)."""
    return (bool(source.arxiv_id) and (not source.venue or source.venue.lower().startswith("arxiv"))
            and source.entry_type in _PREPRINT_ENTRY_TYPES and source.kind in _PREPRINT_KINDS)


def csl_item(source: Source) -> dict[str, Any]:
    """One source as a CSL-JSON item: no field the work does not have (no venue or URL made from its identifiers). An
    arXiv preprint is written as Zotero writes one, and as citeproc-js styles cite one: type ``article``, its arXiv ID
    as ``number`` (``arXiv:2210.03629``), the repository it names as ``publisher``."""
    # the type its entry type says (the kind, where it differs, goes in ``custom``), else one its kind calls for; an
    # arXiv preprint is CSL's "article" whatever BibTeX type it came as (Google Scholar's and Zotero's @article)
    preprint = is_arxiv_preprint(source)
    csl_type = "article" if preprint else (CSL_TYPE_BY_ENTRY_TYPE.get(source.entry_type)
                                           or TYPE_BY_KIND.get(source.kind, "article"))
    item: dict[str, Any] = {"id": source.bibtex_key or source.slug, "type": csl_type,
                            "title": rich_text_escaped(source.title)}
    # the short name, also when it is the whole title where the importer would make a shorter one of it
    if source.short_name and not source.short_name == source.title == short_name_from_title(source.title):
        item["title-short"] = rich_text_escaped(source.short_name)
    if persons := csl_names(source.authors):
        item["author"] = persons
    if source.year:
        month = source.bibliographic.get("month", "")
        item["issued"] = {"date-parts": [[source.year, int(month)] if month.isdigit() and 1 <= int(month) <= 12
                                         else [source.year]]}
    # a book's, a report's or a thesis' venue is who published it, not a container it is printed in; without a
    # venue, the detail that names one (a journal, proceedings, school or institution)
    details = source.bibliographic
    if preprint:
        # the repository, as Zotero writes a preprint's (its "repository" is CSL's publisher), where the work names it
        venue_name, venue = "publisher", source.venue
    elif csl_type in _PUBLISHED_WHOLE and source.entry_type not in _VOLUMES:
        venue_name, venue = "publisher", source.venue or details.get("school") or details.get("institution", "")
    else:
        venue_name, venue = "container-title", source.venue or details.get("journal") or details.get("booktitle", "")
    for key, value in ((venue_name, rich_text_escaped(venue)), ("URL", source.url), ("DOI", source.doi),
                       ("abstract", source.abstract), ("note", source.notes)):
        if value:
            item[key] = value
    for name, value in details.items():
        if (csl := CSL_FIELD_BY_BIBLIOGRAPHIC.get(name)) and value and csl not in item:
            item[csl] = value
    if genre := GENRE_BY_ENTRY_TYPE.get(source.entry_type):
        item["genre"] = genre
    if source.arxiv_id:
        item["number"] = f"arXiv:{source.arxiv_id}"
    elif csl_type == "report" and details.get("number"):
        item["number"] = details["number"]  # a report's number; a journal's issue is CSL's "issue"
        item.pop("issue", None)
    for variable, value in csl_variables(source.extra_fields).items():
        item.setdefault(variable, value)  # what the work's own fields wrote goes first (a thesis' genre)
    custom: dict[str, Any] = {}
    if _kind(csl_type, source.arxiv_id, source.venue, source.url) != source.kind:
        custom[KIND_FIELD] = source.kind
    if source.entry_type and _entry_type(item) not in ("", ENTRY_TYPE_SYNONYMS.get(source.entry_type, source.entry_type)):
        custom[ENTRY_TYPE_FIELD] = source.entry_type
    if issue := source.extra_fields.get("issue"):
        custom[ISSUE_FIELD] = issue
        if item.get("issue") == issue and details.get("number") == issue:
            custom[NUMBER_FIELD] = issue
    if going_on := (["author"] if goes_on(source.authors) else []) + csl_lists_going_on(source.extra_fields):
        custom[ET_AL_FIELD] = going_on
    if custom:
        item["custom"] = custom
    return item


def csl_items(sources: Iterable[Source]) -> list[dict[str, Any]]:
    """The sources as CSL-JSON items, with the same stable keys as their BibTeX."""
    sources = list(sources)
    keys = citation_keys(sources)
    return [{**csl_item(source), "id": keys[source.pk]} for source in sources]


_ENCODE = json.JSONEncoder(ensure_ascii=False).encode


def dump_csl_json(sources: Iterable[Source]) -> str:
    """The items as a JSON array, each variable of an item on a line of its own and its value (a list of names, a
    date) on that line: as readable as ``indent=2`` and written by json's C encoder, which ``indent`` turns off (it
    took half of the export's time)."""
    sources = list(sources)
    items = ("  {\n" + ",\n".join(f"    {_ENCODE(name)}: {_ENCODE(value)}" for name, value in item.items()) + "\n  }"
             for item in csl_items(sources))
    return "[\n" + ",\n".join(items) + "\n]\n" if sources else "[]\n"
