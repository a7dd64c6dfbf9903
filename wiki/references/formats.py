"""Which reference format a text is in, and reading it whole: BibTeX/biblatex, CSL-JSON, RIS or Web of Science's
plain text.

One import holds at most :data:`MAX_IMPORT_BYTES` and :data:`MAX_IMPORT_ENTRIES` entries; a larger file is refused
whole, with nothing imported, rather than half-imported. The entries are counted before they are read, so that a
file of too many is refused at once. The command line takes any number of entries, in batches of that many.
"""

from __future__ import annotations

import re
from enum import StrEnum

from django.utils.translation import gettext

from wiki.references.bibtex import ParsedEntry, parse_bibtex
from wiki.references.csl import parse_csl_json, read_json
from wiki.references.errors import ReferencesRefused
from wiki.references.ris import parse_ris
from wiki.references.wos import count_records, is_wos, parse_wos
from wiki.text.numbers import grouped

MAX_IMPORT_BYTES = 5 * 1024 * 1024
MAX_IMPORT_ENTRIES = 2_000


class ReferenceFormat(StrEnum):
    BIBTEX = "bibtex"
    CSL_JSON = "csl-json"
    RIS = "ris"
    WOS = "wos"

    @property
    def label(self) -> str:
        return {"bibtex": "BibTeX", "csl-json": "CSL-JSON", "ris": "RIS", "wos": "Web of Science"}[self.value]


MEDIA_TYPES = {
    ReferenceFormat.BIBTEX: "application/x-bibtex",
    ReferenceFormat.CSL_JSON: "application/vnd.citationstyles.csl+json",
    ReferenceFormat.RIS: "application/x-research-info-systems",
    # as Web of Science serves its .ciw export (ISI's tagged format); its plain text is read as RIS too
    ReferenceFormat.WOS: "application/x-inst-for-scientific-info",
}
FORMAT_BY_MEDIA_TYPE = {media: fmt for fmt, media in MEDIA_TYPES.items()} | {
    "text/x-bibtex": ReferenceFormat.BIBTEX, "application/x-biblatex": ReferenceFormat.BIBTEX,
    "application/citeproc+json": ReferenceFormat.CSL_JSON, "application/x-ris": ReferenceFormat.RIS,
}
FORMAT_BY_EXTENSION = {".bib": ReferenceFormat.BIBTEX, ".bibtex": ReferenceFormat.BIBTEX, ".json": ReferenceFormat.CSL_JSON,
                       ".csl": ReferenceFormat.CSL_JSON, ".ris": ReferenceFormat.RIS, ".ciw": ReferenceFormat.WOS,
                       ".isi": ReferenceFormat.WOS}
_BIBTEX_ENTRY = re.compile(r"^\s*@\s*[A-Za-z]+\s*[{(]", re.MULTILINE)
_RIS_START = re.compile(r"^TY  - ", re.MULTILINE)


def detect_format(text: str) -> ReferenceFormat | None:
    """The format ``text`` is in, judged by its content: JSON, ``TY  -`` records, Web of Science's ``FN``/``PT``
    lines, or ``@type{`` entries anywhere (text before the first entry, as in a ``.bib`` that starts with a heading or
    JabRef's encoding line, is allowed)."""
    head = text.lstrip("\ufeff \t\r\n")
    if head[:1] in "[{" and head[:1]:
        return ReferenceFormat.CSL_JSON
    if is_wos(text):
        return ReferenceFormat.WOS
    if _RIS_START.search(text[:10_000]):
        return ReferenceFormat.RIS
    if _BIBTEX_ENTRY.search(text):
        return ReferenceFormat.BIBTEX
    return None


# An entry's start, as BibTeX writes one at the head of a line: @string, @preamble and @comment are no entries.
_BIBTEX_ENTRY_START = re.compile(r"^[ \t]*@[ \t]*(?!(?:string|preamble|comment)\b)[A-Za-z]+[ \t]*[{(]",
                                 re.MULTILINE | re.IGNORECASE)


def count_entries(text: str, fmt: ReferenceFormat) -> int:
    """How many entries ``text`` holds, counted without reading them: BibTeX's ``@type{`` at the head of a line,
    RIS's ``TY  -`` lines, a CSL-JSON array's items (0 for text that is no JSON, or JSON nested too deeply, which
    reading it then says)."""
    if fmt is ReferenceFormat.RIS:
        return len(_RIS_START.findall(text))
    if fmt is ReferenceFormat.WOS:
        return count_records(text)
    if fmt is ReferenceFormat.BIBTEX:
        return len(_BIBTEX_ENTRY_START.findall(text))
    try:
        data = read_json(text)
    except ReferencesRefused:
        return 0
    items = data.get("items", [data]) if isinstance(data, dict) else data
    return len(items) if isinstance(items, list) else 0


def _too_many(count: int, limit: int) -> ReferencesRefused:
    return ReferencesRefused(gettext("%(count)s entries; at most %(limit)s are imported at once.")
                             % {"count": grouped(count), "limit": grouped(limit)}, code="too_many_entries")


def parse_references(text: str, fmt: ReferenceFormat | None = None, *,
                     max_entries: int | None = MAX_IMPORT_ENTRIES) -> tuple[ReferenceFormat, list[ParsedEntry]]:
    """Every entry of ``text`` read in ``fmt`` (detected when not given); raises :class:`ReferencesRefused`, for more
    than ``max_entries`` entries before reading them (None: any number)."""
    if len(text.encode()) > MAX_IMPORT_BYTES:
        raise ReferencesRefused(gettext("The file is larger than %(size)s MB; import it in parts.") % {"size": MAX_IMPORT_BYTES // (1024 * 1024)},
                                code="too_large")
    fmt = fmt or detect_format(text)
    if fmt is ReferenceFormat.RIS and is_wos(text):
        fmt = ReferenceFormat.WOS  # sent as RIS, as the tagged format it is akin to
    if fmt is None:
        raise ReferencesRefused(gettext("Not BibTeX (entries start with @article{…), CSL-JSON (a JSON array), RIS (TY  - …) "
                                        "or Web of Science plain text (FN, PT …)."),
                                code="unknown_format")
    if max_entries is not None and (counted := count_entries(text, fmt)) > max_entries:
        raise _too_many(counted, max_entries)
    reader = {ReferenceFormat.BIBTEX: parse_bibtex, ReferenceFormat.CSL_JSON: parse_csl_json, ReferenceFormat.RIS: parse_ris,
              ReferenceFormat.WOS: parse_wos}[fmt]
    entries = reader(text)
    if not entries:
        raise ReferencesRefused(gettext("No %(format)s entry found.") % {"format": fmt.label}, code="no_entries")
    if max_entries is not None and len(entries) > max_entries:
        raise _too_many(len(entries), max_entries)
    return fmt, entries
