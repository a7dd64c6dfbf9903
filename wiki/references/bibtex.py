"""Reading BibTeX: every entry becomes a :class:`SourceDraft` or the reasons it cannot be read."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import bibtexparser

from wiki.models import Source, SourceKind
from wiki.models.rules import MAX_ABSTRACT_CHARS, MAX_NOTES_CHARS, fit
from wiki.references.draft import SourceDraft, short_name_from_title
from wiki.references.identifiers import normalize_arxiv_id, normalize_doi
from wiki.text.spaces import collapse_spaces

MAX_BIBTEX_CHARS = 500_000
MAX_BIBTEX_ENTRIES = 200

_BRACES = re.compile(r"(?<!\\)[{}]")
_ESCAPES = {r"\&": "&", r"\%": "%", r"\_": "_", r"\#": "#", r"\$": "$", "~": " ", "--": "–"}

KIND_BY_ENTRY_TYPE = {
    "article": SourceKind.PAPER, "inproceedings": SourceKind.PAPER, "conference": SourceKind.PAPER,
    "incollection": SourceKind.PAPER, "phdthesis": SourceKind.PAPER, "mastersthesis": SourceKind.PAPER,
    "techreport": SourceKind.PREPRINT, "unpublished": SourceKind.PREPRINT, "online": SourceKind.BLOG,
    "software": SourceKind.PROJECT, "misc": SourceKind.PREPRINT,
}


@dataclass
class ParsedEntry:
    line: int
    label: str
    draft: SourceDraft | None = None
    errors: list[str] = field(default_factory=list)
    raw: str = ""


def _clean_value(value: str) -> str:
    text = _BRACES.sub("", value)
    for escaped, plain in _ESCAPES.items():
        text = text.replace(escaped, plain)
    return collapse_spaces(text)


def _draft_from_fields(entry_type: str, key: str, fields: dict[str, str]) -> tuple[SourceDraft, list[str]]:
    errors: list[str] = []
    get = {name.lower(): _clean_value(value) for name, value in fields.items()}
    title = get.get("title", "")
    if not title:
        errors.append("no title")
    year: int | None = None
    if get.get("year"):
        match = re.search(r"\d{4}", get["year"])
        if match is None:
            errors.append(f"year “{get['year']}” is not a year")
        else:
            year = int(match.group(0))
    arxiv = ""
    eprint = get.get("eprint", "")
    if eprint and (get.get("archiveprefix", "").lower() == "arxiv" or normalize_arxiv_id(eprint)):
        arxiv = normalize_arxiv_id(eprint) or ""
        if not arxiv:
            errors.append(f"eprint “{eprint}” is not an arXiv ID")
    if not arxiv:
        for name in ("url", "journal"):
            if "arxiv" in get.get(name, "").lower():
                arxiv = normalize_arxiv_id(get[name]) or ""
                if arxiv:
                    break
    for name, limit in (("abstract", MAX_ABSTRACT_CHARS), ("note", MAX_NOTES_CHARS)):
        if len(get.get(name, "")) > limit:
            errors.append(f"the {name} is longer than {limit:,} characters")
    doi = ""
    if get.get("doi"):
        doi = normalize_doi(get["doi"]) or ""
        if not doi:
            errors.append(f"DOI “{get['doi']}” is not a DOI")
    authors = "; ".join(a.strip() for a in re.split(r"\s+and\s+", get.get("author", "")) if a.strip())
    kind = KIND_BY_ENTRY_TYPE.get(entry_type.lower(), SourceKind.PAPER)
    if arxiv and kind == SourceKind.PAPER and not get.get("booktitle") and "arxiv" in get.get("journal", "arxiv").lower():
        kind = SourceKind.PREPRINT
    draft = SourceDraft(
        title=fit(Source, "title", title),
        short_name=short_name_from_title(title) if title else key,
        kind=kind,
        authors=authors,
        year=year,
        venue=fit(Source, "venue", get.get("booktitle") or get.get("journal") or get.get("publisher") or ""),
        url=get.get("url", "") or (f"https://arxiv.org/abs/{arxiv}" if arxiv else ""),
        arxiv_id=arxiv,
        doi=doi,
        bibtex_key=fit(Source, "bibtex_key", key),
        abstract=get.get("abstract", ""),
        notes=get.get("note", ""),
    )
    return draft, errors


def parse_bibtex(text: str) -> list[ParsedEntry]:
    """Every entry of ``text`` in order, each a draft or the reasons it cannot be read."""
    if len(text) > MAX_BIBTEX_CHARS:
        return [ParsedEntry(line=1, label="BibTeX", errors=[f"the text is longer than {MAX_BIBTEX_CHARS:,} characters"])]
    library = bibtexparser.parse_string(text)
    parsed: list[ParsedEntry] = []
    for entry in library.entries:
        fields = {f.key: str(f.value) for f in entry.fields}
        draft, errors = _draft_from_fields(entry.entry_type, entry.key, fields)
        parsed.append(ParsedEntry(line=entry.start_line + 1, label=entry.key, draft=draft, errors=errors, raw=entry.raw))
    for block in library.failed_blocks:
        error = getattr(block, "error", None)
        head = block.raw.strip().splitlines()[0][:80] if block.raw.strip() else "?"
        reason = getattr(error, "abort_reason", None) or str(error or "")
        message = collapse_spaces(reason)[:300] or "this entry cannot be read"
        if message.startswith("Unexpected block start"):
            # The parser names the next entry; the fault is an unclosed brace or quote in this one.
            message = "a { or \" is not closed before the next entry starts: " + message
        parsed.append(ParsedEntry(line=block.start_line + 1, label=head, errors=[message], raw=block.raw.strip()))
    parsed.sort(key=lambda p: p.line)
    if not parsed:
        parsed.append(ParsedEntry(line=1, label="BibTeX", errors=["no BibTeX entry found (entries start with @article{…, @misc{…)"]))
    return parsed[: MAX_BIBTEX_ENTRIES + 1] if len(parsed) <= MAX_BIBTEX_ENTRIES else [
        ParsedEntry(line=1, label="BibTeX", errors=[f"more than {MAX_BIBTEX_ENTRIES} entries; import them in parts"])
    ]
