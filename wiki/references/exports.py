"""The reference formats a list of works can be downloaded in: BibTeX/biblatex, CSL-JSON and RIS."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from wiki.models import Source
from wiki.references.bibtex_export import dump_bibtex
from wiki.references.csl import dump_csl_json
from wiki.references.formats import MEDIA_TYPES, ReferenceFormat
from wiki.references.ris_export import dump_ris


@dataclass(frozen=True)
class Export:
    format: ReferenceFormat
    write: Callable[[Iterable[Source]], str]
    extension: str

    @property
    def media_type(self) -> str:
        return MEDIA_TYPES[self.format]


# By the value of ``?format=``.
EXPORTS = {
    "bib": Export(ReferenceFormat.BIBTEX, dump_bibtex, "bib"),
    "csl": Export(ReferenceFormat.CSL_JSON, dump_csl_json, "json"),
    "ris": Export(ReferenceFormat.RIS, dump_ris, "ris"),
}
