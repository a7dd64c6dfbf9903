"""A source not yet saved, as the reference readers and the forms produce it."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

from wiki.models import Source, SourceKind
from wiki.models.rules import fit
from wiki.references.identifiers import normalize_arxiv_id, normalize_doi


@dataclass
class SourceDraft:
    """The fields of a source not yet saved; identifiers are normalised."""

    title: str = ""
    short_name: str = ""
    kind: str = SourceKind.PAPER
    authors: str = ""
    year: int | None = None
    venue: str = ""
    url: str = ""
    arxiv_id: str = ""
    doi: str = ""
    bibtex_key: str = ""
    abstract: str = ""
    notes: str = ""

    def as_fields(self) -> dict[str, Any]:
        return asdict(self)


def draft_from_identifier(raw: str) -> SourceDraft | None:
    """A draft from an arXiv ID/URL or a DOI/doi.org URL; the title is left for the editor to type."""
    text = raw.strip()
    doi = normalize_doi(text)
    if doi and "arxiv" not in doi:
        return SourceDraft(doi=doi, url=f"https://doi.org/{doi}")
    arxiv = normalize_arxiv_id(text) if ("arxiv" in text.lower() or re.fullmatch(r"[\w.\-/]+", text)) else None
    if arxiv:
        return SourceDraft(arxiv_id=arxiv, kind=SourceKind.PREPRINT, url=f"https://arxiv.org/abs/{arxiv}")
    return None


def short_name_from_title(title: str) -> str:
    """``SkillForge: Evolving Verifiable Skills…`` → ``SkillForge``; a title without a colon stays whole."""
    head = title.split(":", 1)[0].strip()
    return head if head and len(head) <= 60 and head != title else fit(Source, "short_name", title)
