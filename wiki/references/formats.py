"""Which reference format a text is in, and reading it whole: BibTeX/biblatex, CSL-JSON or RIS.

One import holds at most :data:`MAX_IMPORT_BYTES` and :data:`MAX_IMPORT_ENTRIES` entries; a larger file is refused
whole, with nothing imported, rather than half-imported.
"""

from __future__ import annotations

import re
from enum import StrEnum

from django.utils.translation import gettext

from wiki.references.bibtex import ParsedEntry, parse_bibtex
from wiki.references.csl import parse_csl_json
from wiki.references.errors import ReferencesRefused
from wiki.references.ris import parse_ris

MAX_IMPORT_BYTES = 5 * 1024 * 1024
MAX_IMPORT_ENTRIES = 2_000


class ReferenceFormat(StrEnum):
    BIBTEX = "bibtex"
    CSL_JSON = "csl-json"
    RIS = "ris"

    @property
    def label(self) -> str:
        return {"bibtex": "BibTeX", "csl-json": "CSL-JSON", "ris": "RIS"}[self.value]


MEDIA_TYPES = {
    ReferenceFormat.BIBTEX: "application/x-bibtex",
    ReferenceFormat.CSL_JSON: "application/vnd.citationstyles.csl+json",
    ReferenceFormat.RIS: "application/x-research-info-systems",
}
FORMAT_BY_MEDIA_TYPE = {media: fmt for fmt, media in MEDIA_TYPES.items()} | {
    "text/x-bibtex": ReferenceFormat.BIBTEX, "application/x-biblatex": ReferenceFormat.BIBTEX,
    "application/citeproc+json": ReferenceFormat.CSL_JSON, "application/x-ris": ReferenceFormat.RIS,
}
FORMAT_BY_EXTENSION = {".bib": ReferenceFormat.BIBTEX, ".bibtex": ReferenceFormat.BIBTEX, ".json": ReferenceFormat.CSL_JSON,
                       ".csl": ReferenceFormat.CSL_JSON, ".ris": ReferenceFormat.RIS}
_BIBTEX_ENTRY = re.compile(r"^\s*@\s*[A-Za-z]+\s*[{(]", re.MULTILINE)
_RIS_START = re.compile(r"^TY  - ", re.MULTILINE)


def detect_format(text: str) -> ReferenceFormat | None:
    """The format ``text`` is in, judged by its content: JSON, ``TY  -`` records, or ``@type{`` entries anywhere
    (text before the first entry, as in a ``.bib`` that starts with a heading or JabRef's encoding line, is allowed)."""
    head = text.lstrip("\ufeff \t\r\n")
    if head[:1] in "[{" and head[:1]:
        return ReferenceFormat.CSL_JSON
    if _RIS_START.search(text[:10_000]):
        return ReferenceFormat.RIS
    if _BIBTEX_ENTRY.search(text):
        return ReferenceFormat.BIBTEX
    return None


def parse_references(text: str, fmt: ReferenceFormat | None = None) -> tuple[ReferenceFormat, list[ParsedEntry]]:
    """Every entry of ``text`` read in ``fmt`` (detected when not given); raises :class:`ReferencesRefused`."""
    if len(text.encode()) > MAX_IMPORT_BYTES:
        raise ReferencesRefused(gettext("The file is larger than %(size)s MB; import it in parts.") % {"size": MAX_IMPORT_BYTES // (1024 * 1024)},
                                code="too_large")
    fmt = fmt or detect_format(text)
    if fmt is None:
        raise ReferencesRefused(gettext("Not BibTeX (entries start with @article{…), CSL-JSON (a JSON array) or RIS (TY  - …)."),
                                code="unknown_format")
    reader = {ReferenceFormat.BIBTEX: parse_bibtex, ReferenceFormat.CSL_JSON: parse_csl_json, ReferenceFormat.RIS: parse_ris}[fmt]
    entries = reader(text)
    if not entries:
        raise ReferencesRefused(gettext("No %(format)s entry found.") % {"format": fmt.label}, code="no_entries")
    if len(entries) > MAX_IMPORT_ENTRIES:
        raise ReferencesRefused(gettext("%(count)s entries; at most %(limit)s are imported at once.")
                                % {"count": f"{len(entries):,}", "limit": f"{MAX_IMPORT_ENTRIES:,}"},
                                code="too_many_entries")
    return fmt, entries
