"""What a reference file says of a work beyond every field the wiki keeps, kept so that the exports give it back.

A Zotero, Better BibTeX or JabRef record carries fields the wiki has no column for: ``keywords``, ``langid`` or
``language``, ``urldate``, ``primaryClass``, an ``editor`` beside the authors, a report's ``type``, ``titleaddon``,
``location``, ``pagetotal``… A work keeps them in ``Source.extra_fields`` by their BibTeX names, one line each, and
the BibTeX export writes them back as they came (CSL-JSON those it has a variable for: ``keyword``, ``language``,
``accessed``…). What a reference manager keeps about its own copy rather than the work is left out, with a warning:
where the PDF lies on one computer (``file``), when the record was added or changed (``timestamp``), its groups,
ratings and read marks.
"""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from wiki.references.draft import BIBLIOGRAPHIC_FIELDS, one_line
from wiki.references.names import csl_names, goes_on, names_from_csl
from wiki.text.numbers import grouped
from wiki.text.spaces import collapse_spaces

NAME = re.compile(r"[a-z][a-z0-9_:.+-]{0,39}")
MAX_EXTRA_CHARS = 3000
MAX_EXTRA_FIELDS = 40
# Fields the wiki reads into a field of its own (or its bibliographic details): never kept twice.
KEPT_ELSEWHERE = frozenset({
    *BIBLIOGRAPHIC_FIELDS, "title", "subtitle", "shorttitle", "author", "abstract", "note", "url", "doi", "year",
    "journaltitle", "crossref",
})
# A reference manager's record of its own copy: files on one computer, when it was added, groups, ratings, marks.
LOCAL_FIELDS = frozenset({
    "file", "files", "pdf", "localfile", "local-url", "owner", "timestamp", "creationdate", "modificationdate",
    "groups", "readstatus", "ranking", "priority", "qualityassured", "relevance", "printed", "rating", "read",
    "biburl", "bibsource", "added-at", "interhash", "intrahash", "abstractnote", "date-added", "date-modified",
})
_LOCAL_PREFIXES = ("bdsk-", "mendeley-", "jabref-", "citeulike-", "zotero-", "__")
# Fields that hold people, kept as the work's authors are (``Family, Given; {Organisation}``).
NAME_FIELDS = frozenset({"editor", "translator", "bookauthor", "editora", "editorb", "editorc", "annotator",
                         "commentator", "introduction", "foreword", "afterword", "holder"})
# Fields written verbatim, as identifiers and dates are: no LaTeX decoded or escaped (``2015-01-09``, ``cs.LG``).
VERBATIM_FIELDS = frozenset({"eprint", "eprintclass", "primaryclass", "eprinttype", "archiveprefix", "date",
                             "urldate", "origdate", "eventdate", "ids", "pmid", "pmcid"})
# CSL-JSON's variable for a field, where it has one (CSL 1.0.2's names, as Zotero and citeproc-js read them).
CSL_VARIABLE = {
    "keywords": "keyword", "language": "language", "langid": "language", "urldate": "accessed", "annote": "annote",
    "type": "genre", "eventtitle": "event-title", "venue": "event-place", "location": "publisher-place",
    "pagetotal": "number-of-pages", "version": "version", "shortjournal": "container-title-short", "pmid": "PMID",
    "pmcid": "PMCID", "pubstate": "status", "issue": "issue", "volumes": "number-of-volumes", "medium": "medium",
    "archive": "archive", "callnumber": "call-number", "eventdate": "event-date", "origdate": "original-date",
    "origpublisher": "original-publisher", "origtitle": "original-title", "editor": "editor",
    "translator": "translator", "bookauthor": "container-author",
}
_CSL_DATES = frozenset({"accessed", "event-date", "original-date"})
_CSL_NAMES = frozenset({"editor", "translator", "container-author"})
# Each CSL variable read back into the field it was written from (language from language, not langid).
FIELD_BY_CSL_VARIABLE = {variable: name for name, variable in CSL_VARIABLE.items() if name != "langid"}
_ISO_DATE = re.compile(r"(\d{4})(?:-(\d{1,2}))?(?:-(\d{1,2}))?")
# A path on one computer: a file: URL, a home directory, a Windows drive, the usual Unix and macOS roots.
_LOCAL_PATH = re.compile(r"^(?:file:|~/|[A-Za-z]:[\\/]|/(?:Users|home|Volumes|mnt|media|private|tmp|var|opt)/)")


def is_local(name: str, value: str = "") -> bool:
    """Whether the field ``name`` is a reference manager's record of its own copy (``file``, ``timestamp``…), or holds
    a path on one computer."""
    return name in LOCAL_FIELDS or name.startswith(_LOCAL_PREFIXES) or bool(_LOCAL_PATH.match(value.strip()))


def clean_extra_fields(values: object) -> dict[str, str]:
    """``values`` as a work keeps them: field names in lower case, one line of text each, spacing folded, empty ones
    left out. Anything else raises ``ValidationError``, a message for each field that is wrong."""
    if not isinstance(values, dict):
        raise ValidationError(gettext("Give the other fields as names and values."), code="invalid")
    cleaned: dict[str, str] = {}
    errors = []
    for raw_name, value in values.items():
        name = str(raw_name).strip().lower()
        if not NAME.fullmatch(name):
            errors.append(gettext("“%(name)s” is no field name: up to 40 lower-case letters, digits and - _ : . +, "
                                  "starting with a letter.") % {"name": raw_name})
        elif name in KEPT_ELSEWHERE:
            errors.append(gettext("“%(name)s” is kept in the work's own fields or bibliographic details, not among "
                                  "its other fields.") % {"name": name})
        elif value := one_line(name, value, MAX_EXTRA_CHARS, errors):
            cleaned[name] = value
    if len(cleaned) > MAX_EXTRA_FIELDS:
        errors.append(gettext("A work keeps at most %(limit)s other fields (these are %(count)s).")
                      % {"limit": MAX_EXTRA_FIELDS, "count": len(cleaned)})
    if errors:
        raise ValidationError([ValidationError(message, code="invalid") for message in errors])
    return cleaned


def fitting(extra: dict[str, str], warnings: list[str]) -> dict[str, str]:
    """``extra`` without the values longer than a work keeps, each said in ``warnings``: a field the wiki has no place
    for is not worth refusing the entry."""
    kept: dict[str, str] = {}
    for name, value in extra.items():
        if len(value) > MAX_EXTRA_CHARS:
            warnings.append(gettext("%(field)s is left out: it is longer than %(limit)s characters (it has %(count)s)")
                            % {"field": name, "limit": grouped(MAX_EXTRA_CHARS), "count": grouped(len(value))})
        elif len(kept) == MAX_EXTRA_FIELDS:
            warnings.append(gettext("%(field)s is left out: a work keeps at most %(limit)s other fields")
                            % {"field": name, "limit": MAX_EXTRA_FIELDS})
        else:
            kept[name] = value
    return kept


def _csl_date(value: str) -> dict[str, Any]:
    """An ISO date (``2015-01-09``, ``2015-01``, ``2015``) as CSL's ``date-parts``; any other as ``raw``."""
    found = _ISO_DATE.fullmatch(value.strip())
    if not found:
        return {"raw": value}
    return {"date-parts": [[int(part) for part in found.groups() if part]]}


def _date_text(value: Any) -> str:
    """A CSL date as ISO text: ``[[2015, 1, 9]]`` → ``2015-01-09``; its ``raw`` or ``literal`` as written."""
    if not isinstance(value, dict):
        return ""
    parts = value.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        numbers = [part for part in parts[0][:3] if isinstance(part, int) or (isinstance(part, str) and part.isdigit())]
        if numbers and len(numbers) == len(parts[0][:3]):
            year, *rest = (int(part) for part in numbers)
            return "-".join([f"{year:04d}", *(f"{part:02d}" for part in rest)])
    return collapse_spaces(str(value.get("raw") or value.get("literal") or ""))


def csl_variables(extra: dict[str, str]) -> dict[str, Any]:
    """The work's other fields CSL-JSON has a variable for, as it writes them: dates as ``date-parts``, people as
    names; ``language`` before ``langid``."""
    variables: dict[str, Any] = {}
    for name in sorted(extra, key=lambda name: name == "langid"):
        variable = CSL_VARIABLE.get(name)
        if variable is None or variable in variables:
            continue
        value = extra[name]
        if variable in _CSL_DATES:
            variables[variable] = _csl_date(value)
        elif variable in _CSL_NAMES:
            variables[variable] = csl_names(value)
        else:
            variables[variable] = value
    return variables


def csl_lists_going_on(extra: dict[str, str]) -> list[str]:
    """The CSL name variables :func:`csl_variables` writes whose list goes on (the field ended in ``and others``)."""
    return sorted({variable for name, value in extra.items()
                   if (variable := CSL_VARIABLE.get(name)) in _CSL_NAMES and goes_on(value)})


def extra_from_csl(item: dict[str, Any], *, read: frozenset[str], going_on: frozenset[str] = frozenset()) -> dict[str, str]:
    """The item's variables that the wiki keeps among a work's other fields, by their BibTeX names; ``read``: the
    variables the reader took into the work's own fields (a thesis' genre, an event title that was its venue);
    ``going_on``: the name variables whose list goes on past the names given."""
    extra: dict[str, str] = {}
    for variable, name in FIELD_BY_CSL_VARIABLE.items():
        value = item.get(variable)
        if variable in read or value in (None, "", []):
            continue
        if variable in _CSL_DATES:
            text = _date_text(value)
        elif variable in _CSL_NAMES:
            text = names_from_csl(value, going_on=variable in going_on) if isinstance(value, list) else ""
        else:
            text = collapse_spaces(str(value)) if isinstance(value, (str, int, float)) else ""
        if text:
            extra[name] = text
    return extra
