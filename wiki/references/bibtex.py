"""Reading BibTeX and biblatex as reference managers write them: every entry becomes a :class:`SourceDraft` or the
reasons it cannot be read.

bibtexparser (v2) splits the file into entries, ``@string``, ``@preamble`` and comments (text outside entries,
such as a ``# Related Works`` heading or JabRef's ``% Encoding: UTF-8`` line, is a comment); pylatexenc decodes
LaTeX in the values. Zotero, Better BibTeX, JabRef and Google Scholar differ in where they put identifiers:
``eprint``/``eprinttype``/``archivePrefix``, ``journal = {arXiv preprint arXiv:…}``, ``howpublished = {\\url{…}}``,
``doi``, ``url``; biblatex has ``date`` where BibTeX has ``year``, and a title's ``subtitle`` apart, which biber and Zotero
join to it (``Title: Subtitle``).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field

from bibtexparser.entrypoint import parse_string
from bibtexparser.model import DuplicateBlockKeyBlock, Entry
from django.utils.translation import gettext

from wiki.models import SourceKind
from wiki.references.bibtex_crossref import FieldsRead, resolve_crossrefs
from wiki.references.bibtex_extra import extra_fields
from wiki.references.bibtex_macros import Macros, NotOneValue, TooLong
from wiki.references.draft import (
    BIBLIOGRAPHIC_FIELDS,
    VENUE_FIELDS,
    SourceDraft,
    checked_draft,
    doi_or_warning,
    field_limit,
    find_year,
    is_repository_url,
    month_of,
    short_name_from_title,
    thesis_entry_type,
)
from wiki.references.errors import FieldProblem
from wiki.references.extra_fields import MAX_EXTRA_CHARS, is_local
from wiki.references.identifiers import (
    arxiv_id_alone,
    arxiv_id_from_doi,
    find_arxiv_id,
    find_doi,
    normalize_arxiv_id,
)
from wiki.references.latex import latex_to_text
from wiki.references.names import from_bibtex
from wiki.references.parse_errors import bibtex_reason
from wiki.text.lang import has_chinese
from wiki.text.numbers import grouped

KIND_BY_ENTRY_TYPE = {
    "article": SourceKind.PAPER, "inproceedings": SourceKind.PAPER, "conference": SourceKind.PAPER,
    "incollection": SourceKind.PAPER, "inbook": SourceKind.PAPER, "book": SourceKind.PAPER,
    "phdthesis": SourceKind.PAPER, "mastersthesis": SourceKind.PAPER, "thesis": SourceKind.PAPER,
    "techreport": SourceKind.PREPRINT, "report": SourceKind.PREPRINT, "unpublished": SourceKind.PREPRINT,
    "online": SourceKind.BLOG, "electronic": SourceKind.BLOG, "www": SourceKind.BLOG,
    "software": SourceKind.PROJECT, "dataset": SourceKind.PROJECT, "misc": SourceKind.PREPRINT,
    "proceedings": SourceKind.PAPER, "collection": SourceKind.PAPER,
}
# A URL as LaTeX writes it: ``\\%``, ``\\&``, ``\\#``, ``\\_``, ``\\~`` and ``\\$`` are escaped characters of the URL.
_URL = re.compile(r"https?://(?:[^\s{}\\]|\\[%&#_~$])+")
_URL_ESCAPE = re.compile(r"\\([%&#_~$])")
_URL_COMMAND = re.compile(r"\\url\s*\{(.*)\}", re.DOTALL)
_URL_IN_NOTE = re.compile(r"\\url\s*\{(https?://[^{}]*)\}")
_CORR_VOLUME = re.compile(r"abs/(\S+)", re.IGNORECASE)
_ENTRY_KEY = re.compile(r"@\w+\s*[{(]\s*(?P<key>[^,\s{}()=]+)")
# The fields read, each bounded by the draft field it gives (or one like it): the others, however long or whatever
# macros they use, are neither expanded nor decoded.
READ_FIELDS = {
    "title": "title", "subtitle": "title", "titleaddon": "title", "shorttitle": "short_name", "author": "authors", "editor": "authors", "abstract": "abstract",
    "note": "notes", "url": "url", "pdf": "url", "howpublished": "url", "journal": "venue", "booktitle": "venue",
    "journaltitle": "venue", "institution": "venue", "school": "venue", "publisher": "venue", "organization": "venue", "year": "title",
    "date": "title", "urldate": "title", "eprint": "title", "archiveprefix": "title", "eprinttype": "title",
    "doi": "title", "volume": "title", "entrysubtype": "title", "type": "title", "crossref": "bibtex_key",
    **dict.fromkeys(("number", "pages", "series", "edition", "chapter", "address", "month", "isbn", "issn"), "venue"),
}
# Fields whose paragraphs are kept apart, as LaTeX keeps them.
_MULTI_LINE = frozenset({"abstract", "note"})
# LaTeX spends up to five characters on one it shows ({\"o} is ö): a value longer than five times its field's limit
# as written is refused before it is decoded, which costs some ten microseconds a character.
_LATEX_PER_CHARACTER = 5


# The fields of a file a field of the wiki's may come from, by the file's names.
_FILE_NAMES = {"authors": ("author",), "notes": ("note",), "short_name": ("shorttitle",), "url": ("howpublished",),
               "venue": (*VENUE_FIELDS, "howpublished")}


@dataclass
class ParsedEntry:
    """One entry of a reference file: where it starts, its key, and its draft or the reasons it cannot be read."""

    line: int
    label: str
    draft: SourceDraft | None = None
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # what was mended or left out for the draft to be saved
    raw: str = ""
    repeats: int | None = None  # the line of an earlier entry with the same key, when this one repeats it
    # the line each of its fields starts on, by the file's names or the wiki's, where the reader knows them
    field_lines: dict[str, int] = field(default_factory=dict)

    def line_of(self, problem: str) -> int:
        """The line ``problem`` is about: that of the field it names (:class:`FieldProblem`) where the reader knows
        it, else the entry's."""
        return self.field_line(getattr(problem, "field", ""))

    def field_line(self, name: str) -> int:
        """The line of the field ``name`` (the wiki's name or the file's) where the reader knows it, else the entry's."""
        return next((self.field_lines[n] for n in (name, *_FILE_NAMES.get(name, ())) if n in self.field_lines), self.line)


def _year(fields: dict[str, str], errors: list[str]) -> int | None:
    name = next((name for name in ("year", "date", "urldate") if fields.get(name)), "")
    if not name:
        return None
    raw = fields[name]
    year = find_year(raw)
    if year is None:
        errors.append(FieldProblem(gettext("year “%(value)s” is not a year") % {"value": raw}, field=name))
    return year


def _identifiers(raw: dict[str, str], text: dict[str, str], errors: list[str], warnings: list[str]) -> tuple[str, str, str]:
    """The arXiv ID, the DOI and the URL, wherever the reference manager put them."""
    arxiv, doi = "", ""
    eprint = text.get("eprint", "")
    prefix = (text.get("archiveprefix") or text.get("eprinttype") or "").lower()
    if eprint and (prefix == "arxiv" or (not prefix and normalize_arxiv_id(eprint))):
        arxiv = normalize_arxiv_id(eprint) or ""
        if not arxiv:
            errors.append(FieldProblem(gettext("eprint “%(value)s” is not an arXiv ID") % {"value": eprint}, field="eprint"))
    if text.get("doi"):
        doi = doi_or_warning(text["doi"], warnings)
    written = _written_url(raw.get("url", ""))
    # A note is text: a URL in it is the work's address only when marked as one (\url{…}).
    found = [_URL_ESCAPE.sub(r"\1", url) for name in ("howpublished", "pdf") for url in _URL.findall(raw.get(name, ""))]
    found += [_URL_ESCAPE.sub(r"\1", url.strip()) for url in _URL_IN_NOTE.findall(raw.get("note", ""))]
    urls = [written, *found] if written else found
    for url in urls:
        if not arxiv and "arxiv.org" in url.lower():
            arxiv = find_arxiv_id(url) or ""
        if not doi and "doi.org/" in url.lower():
            doi = find_doi(url) or ""
    if not arxiv:
        for name in ("journal", "booktitle", "howpublished", "note", "publisher"):
            value = text.get(name, "")
            # A note names the work's arXiv ID when it is that ID alone (Zotero's "arXiv:2210.03629 [cs]").
            found_id = arxiv_id_alone(value) if name == "note" else find_arxiv_id(value) if "arxiv" in value.lower() else None
            if found_id:
                arxiv = found_id
                break
    if not arxiv and text.get("journal", "").strip().lower() == "corr":
        match = _CORR_VOLUME.search(text.get("volume", ""))
        arxiv = normalize_arxiv_id(match.group(1)) or "" if match else ""
    if doi and arxiv_id_from_doi(doi):
        arxiv, doi = arxiv or arxiv_id_from_doi(doi) or "", ""
    url = urls[0] if urls else ""
    return arxiv, doi, url


def _written_url(value: str) -> str:
    """The ``url`` field whole, as biblatex reads it verbatim: braces, spaces and a scheme other than http kept for
    the draft to store or refuse (``{https://example.org/{id}/x}``), a ``\\url{…}`` around it and LaTeX's escapes
    (``\\%``, ``\\_``) removed."""
    value = value.strip()
    wrapped = _URL_COMMAND.fullmatch(value)
    return _URL_ESCAPE.sub(r"\1", wrapped.group(1).strip() if wrapped else value)


def _venue(text: dict[str, str], arxiv: str) -> str:
    venue = (text.get("booktitle") or text.get("journal") or text.get("journaltitle") or text.get("institution")
             or text.get("school") or "")
    if not venue and not _URL.search(text.get("howpublished", "")):
        venue = text.get("howpublished", "")
    venue = venue or text.get("publisher") or text.get("organization") or ""
    # "arXiv preprint arXiv:2503.01234" is arXiv; a venue is never made up from an eprint alone.
    return "arXiv" if arxiv and venue.lower().startswith("arxiv") else venue


# Entry types of a work known by its address: a repository's is a project, any other a post.
_WEB_ENTRY_TYPES = frozenset({"misc", "online", "electronic", "www"})


def _kind(entry_type: str, text: dict[str, str], arxiv: str, url: str) -> str:
    kind = KIND_BY_ENTRY_TYPE.get(entry_type, SourceKind.PAPER)
    published = text.get("booktitle") or (text.get("journal") and "arxiv" not in text.get("journal", "").lower()
                                          and text.get("journal", "").lower() != "corr")
    if arxiv and not published and kind in (SourceKind.PAPER, SourceKind.BLOG, SourceKind.PREPRINT):
        return SourceKind.PREPRINT
    if entry_type in _WEB_ENTRY_TYPES and not arxiv and not published and url:
        return SourceKind.PROJECT if is_repository_url(url) else SourceKind.BLOG
    return kind


_TERMINAL_PUNCTUATION = frozenset(".?!:;。？！：；")


def with_subtitle(title: str, subtitle: str) -> str:
    """``title`` and biblatex's ``subtitle`` as one title, as biber prints it and Zotero imports it: ``Policy Gradient
    Methods: For Reinforcement Learning…``; a Chinese title with a full-width colon, ``红楼梦：脂砚斋全评本``; after a title
    ending in its own punctuation (``Why?``), a space only."""
    title, subtitle = title.strip(), subtitle.strip()
    if not title or not subtitle:
        return title or subtitle
    if has_chinese(title[-1]) or has_chinese(subtitle[0]):
        return f"{title}{subtitle}" if title[-1] in _TERMINAL_PUNCTUATION else f"{title}：{subtitle}"
    return f"{title} {subtitle}" if title[-1] in _TERMINAL_PUNCTUATION else f"{title}: {subtitle}"


def draft_from_fields(entry_type: str, key: str, raw: dict[str, str], *, unread: dict[str, str] | None = None,
                      unreadable: Collection[str] = ()) -> tuple[SourceDraft, list[str], list[str]]:
    """A draft from one entry's fields (names in any case, values as written; ``unread``: the fields the wiki keeps
    among the work's other fields, by lower-case names); the errors found in them, and the warnings of what was
    mended or left out to import it. ``unreadable``: fields the entry has that could not be read, whose own error
    is said already (a title too long is not said missing too)."""
    errors: list[str] = []
    warnings: list[str] = []
    entry_type = entry_type.lower()
    raw = {name.lower(): value for name, value in raw.items()}
    text = {name: latex_to_text(value, paragraphs=name in _MULTI_LINE) for name, value in raw.items()
            if name not in {"author", "editor"}}
    head = text.get("title", "")
    title = with_subtitle(head, text.get("subtitle", "")) if head else ""
    if not title and "title" not in unreadable:
        errors.append(gettext("no title"))
    year = _year(text, errors)
    arxiv, doi, url = _identifiers(raw, text, errors, warnings)
    authors = from_bibtex(raw.get("author", ""))
    authors_from_editor = not authors
    authors = authors or from_bibtex(raw.get("editor", ""))
    note = text.get("note", "")
    # biblatex's entrysubtype says what the entry type cannot (the wiki writes it for a survey, a benchmark…).
    subtype = text.get("entrysubtype", "").strip().lower()
    venue = _venue(text, arxiv)
    draft = SourceDraft(
        title=title,
        short_name=text.get("shorttitle", "") or (short_name_from_title(title) if title else key),
        kind=subtype if subtype in SourceKind.values else _kind(entry_type, text, arxiv, url),
        authors=authors,
        year=year,
        venue=venue,
        url=url,
        arxiv_id=arxiv,
        doi=doi,
        bibtex_key=key,
        abstract=text.get("abstract", ""),
        # A note that is only the work's arXiv ID or its address says nothing more.
        notes="" if (url and note.strip("<> ") == url) or arxiv_id_alone(note) else note,
        entry_type=thesis_entry_type(text.get("type", "")) if entry_type == "thesis" else
        entry_type if entry_type in KIND_BY_ENTRY_TYPE else "",
        bibliographic=_bibliographic(text),
        extra_fields=extra_fields(entry_type, raw, text, unread or {}, arxiv=arxiv, venue=venue,
                                  authors_from_editor=authors_from_editor, warnings=warnings),
    )
    return checked_draft(draft, errors, warnings)


def _bibliographic(text: dict[str, str]) -> dict[str, str]:
    """What the entry says besides, by BibTeX's names; a month biblatex gives only in its date (2024-02-05) too."""
    details = {name: value.strip() for name in BIBLIOGRAPHIC_FIELDS if (value := text.get(name, "")).strip()}
    if "month" not in details and (month := month_of(text.get("date", ""))):
        details["month"] = month
    return details


def _fields_read(entry: Entry, macros: Macros) -> FieldsRead:
    """The fields the wiki reads, their macros expanded; the errors found doing so (a value too long, a macro no
    ``@string`` defines, which BibTeX would read as nothing)."""
    fields: dict[str, str] = {}
    errors: list[str] = []
    unreadable: list[str] = []
    unread: dict[str, str] = {}
    local: list[str] = []
    warnings: list[str] = []
    for f in entry.fields:
        name = f.key.lower()
        if name not in READ_FIELDS:
            if is_local(name):
                local.append(name)
            else:
                _read_other(name, str(f.value), macros, unread, warnings)
            continue
        limit = field_limit(READ_FIELDS[name])
        try:
            fields[name], undefined = macros.expand(str(f.value), limit=limit * _LATEX_PER_CHARACTER)
        except TooLong as error:
            errors.append(FieldProblem(gettext("%(field)s is longer than %(limit)s characters (it has %(count)s as written)")
                                       % {"field": name, "limit": grouped(limit), "count": grouped(error.length)}, field=name))
            unreadable.append(name)
            continue
        except NotOneValue as error:
            errors.append(FieldProblem(
                gettext("%(field)s uses “%(name)s”, whose @string goes on after its value closes: is a comma "
                        "missing, or a brace or quote not closed?") % {"field": name, "name": error.macro}
                if error.macro else
                gettext("%(field)s goes on after its value closes (“%(rest)s”): is a comma missing before "
                        "it?") % {"field": name, "rest": error.rest[:80]}, field=name))
            unreadable.append(name)
            continue
        if name == "month" and undefined:
            # a month's name that is no macro of BibTeX's (sept, june) is kept as written, not worth the entry
            fields[name] = str(f.value).strip()
            continue
        errors += [FieldProblem(gettext("%(field)s uses “%(name)s”, which no @string defines: brace it ({%(name)s}) if "
                                        "it is text") % {"field": name, "name": macro}, field=name)
                   for macro in dict.fromkeys(undefined)]
    if local or "pdf" in fields:
        warnings.insert(0, gettext("%(fields)s left out: the reference manager's record of its own copy (where its "
                                   "files lie, when it was added), not the work's")
                        % {"fields": ", ".join([*local, *(["pdf"] if "pdf" in fields else [])])})
    return FieldsRead(entry.key, entry.entry_type, fields, errors, unread, warnings, tuple(unreadable))


def _read_other(name: str, written: str, macros: Macros, unread: dict[str, str], warnings: list[str]) -> None:
    """A field the wiki keeps among the work's other fields, macros expanded into ``unread``; one it cannot expand
    (too long, a macro no ``@string`` defines) is left out with a warning rather than refuse the entry."""
    try:
        value, undefined = macros.expand(written, limit=MAX_EXTRA_CHARS * _LATEX_PER_CHARACTER)
    except TooLong as error:
        warnings.append(gettext("%(field)s is left out: it is longer than %(limit)s characters (it has %(count)s as "
                                "written)") % {"field": name, "limit": grouped(MAX_EXTRA_CHARS), "count": grouped(error.length)})
        return
    except NotOneValue:
        warnings.append(gettext("%(field)s is left out: its value goes on after it closes") % {"field": name})
        return
    if undefined:
        warnings.append(gettext("%(field)s is left out: it uses “%(name)s”, which no @string defines")
                        % {"field": name, "name": undefined[0]})
        return
    unread[name] = value


def _field_lines(entry: Entry) -> dict[str, int]:
    """The line of each field, and of the entry's key (``bibtex_key``), which may stand on a line of its own."""
    lines = {f.key.lower(): f.start_line + 1 for f in entry.fields if f.start_line is not None}
    if entry.start_line is not None and (key := _ENTRY_KEY.search(entry.raw or "")):
        lines["bibtex_key"] = entry.start_line + 1 + (entry.raw or "").count("\n", 0, key.start("key"))
    return lines


def _parsed(read: FieldsRead, *, line: int, raw: str, repeats: int | None = None,
            field_lines: dict[str, int] | None = None) -> ParsedEntry:
    """The entry's draft, or every reason it is refused: those of the fields it could not read and those of the
    fields it could (a year that is not one besides a macro no @string defines), so that one import says them all."""
    draft: SourceDraft | None
    draft, errors, warnings = draft_from_fields(read.entry_type, read.key, read.fields, unread=read.unread,
                                                unreadable=read.unreadable)
    if read.errors:
        draft, warnings = None, []
    return ParsedEntry(line=line, label=read.key, draft=draft, errors=read.errors + errors,
                       warnings=read.warnings + warnings if draft is not None else [], raw=raw, repeats=repeats,
                       field_lines=field_lines or {})


_ENTRY_START = re.compile(r"^[ \t]*@[ \t]*[A-Za-z]+[ \t]*[{(]", re.MULTILINE)


def _next_entry_line(text: str, *, after: int) -> int | None:
    """The line (from 1) of the first ``@type{`` starting a line after line ``after``."""
    offset = 0
    for _ in range(after):
        offset = text.find("\n", offset) + 1
        if offset == 0:
            return None
    found = _ENTRY_START.search(text, offset)
    return text.count("\n", 0, found.start()) + 1 if found else None


def parse_bibtex(text: str) -> list[ParsedEntry]:
    """Every entry of ``text`` in order, each a draft or the reasons it cannot be read."""
    # No middleware: values come as written, braces and quotes included, for the macros to tell text from names.
    library = parse_string(text, parse_stack=[])
    macros = Macros(max_macro_chars=max(field_limit(name) for name in READ_FIELDS.values()) * _LATEX_PER_CHARACTER)
    for string in library.strings:  # in file order, so that a macro can use those defined before it
        macros.define(string.key, str(string.value))
    parsed: list[ParsedEntry] = []
    # each entry's fields, line, text, the line it repeats and its fields' lines
    read: list[tuple[FieldsRead, int, str, int | None, dict[str, int]]] = []
    first_line: dict[str, int] = {}
    for entry in library.entries:
        first_line[entry.key] = (entry.start_line or 0) + 1
        read.append((_fields_read(entry, macros), (entry.start_line or 0) + 1, entry.raw or "", None, _field_lines(entry)))
    for block in library.failed_blocks:
        if isinstance(block, DuplicateBlockKeyBlock) and isinstance(block.ignore_error_block, Entry):
            entry = block.ignore_error_block
            read.append((_fields_read(entry, macros), (block.start_line or 0) + 1, (block.raw or "").strip(),
                         first_line.get(entry.key), _field_lines(entry)))
            continue
        error = getattr(block, "error", None)
        raw = (block.raw or "").strip()
        key = _ENTRY_KEY.match(raw)
        label = key["key"] if key else raw.splitlines()[0][:80] if raw else "?"
        message = bibtex_reason(getattr(error, "abort_reason", None) or str(error or ""),
                                next_entry_line=_next_entry_line(text, after=(block.start_line or 0) + 1))
        parsed.append(ParsedEntry(line=(block.start_line or 0) + 1, label=label, errors=[message], raw=raw))
    left_out = resolve_crossrefs([fields for fields, *_ in read])
    parsed += [_parsed(fields, line=line, raw=raw, repeats=repeats, field_lines=lines)
               for index, (fields, line, raw, repeats, lines) in enumerate(read) if index not in left_out]
    parsed.sort(key=lambda p: p.line)
    return parsed
