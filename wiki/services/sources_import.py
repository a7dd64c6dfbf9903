"""Adding sources from BibTeX, an arXiv ID or URL, a DOI, or by hand; duplicates are found, never created.

A duplicate is a source with the same arXiv ID (any version), the same DOI (URL or bare), or the
same normalised title. BibTeX with several entries is imported entry by entry, each in its own
savepoint: a broken or duplicate entry is reported and the others are still imported.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

import bibtexparser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q

from wiki.identifiers import normalize_arxiv_id, normalize_doi, normalize_title
from wiki.models import ChangeEvent, Source, SourceKind
from wiki.services.changes import change_record, check_not_stale
from wiki.services.sources import short_name_from_title, sources_lock_creation, unique_source_slug
from wiki.search.index import search_reindex_sources
from wiki.text import collapse_spaces

MAX_BIBTEX_CHARS = 500_000
MAX_BIBTEX_ENTRIES = 200
# The classifier reads the abstract and notes on every source page and classification form: a pasted book
# would make those pages take seconds. An abstract is a few thousand characters; notes may be longer.
MAX_ABSTRACT_CHARS = 20_000
MAX_NOTES_CHARS = 50_000

_BRACES = re.compile(r"(?<!\\)[{}]")
_ESCAPES = {r"\&": "&", r"\%": "%", r"\_": "_", r"\#": "#", r"\$": "$", "~": " ", "--": "–"}

KIND_BY_ENTRY_TYPE = {
    "article": SourceKind.PAPER, "inproceedings": SourceKind.PAPER, "conference": SourceKind.PAPER,
    "incollection": SourceKind.PAPER, "phdthesis": SourceKind.PAPER, "mastersthesis": SourceKind.PAPER,
    "techreport": SourceKind.PREPRINT, "unpublished": SourceKind.PREPRINT, "online": SourceKind.BLOG,
    "software": SourceKind.PROJECT, "misc": SourceKind.PREPRINT,
}


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


@dataclass(frozen=True)
class ImportResult:
    """What became of one BibTeX entry: ``created``, ``duplicate`` (of ``source``) or ``error``."""

    label: str
    status: str
    source: Source | None = None
    message: str = ""
    line: int | None = None
    raw: str = ""  # the entry as pasted, offered again to fix when it failed


@dataclass
class ParsedEntry:
    line: int
    label: str
    draft: SourceDraft | None = None
    errors: list[str] = field(default_factory=list)
    raw: str = ""


class SourceDuplicate(Exception):
    def __init__(self, source: Source, reason: str) -> None:
        super().__init__(f"{reason}: {source.short_name}")
        self.source = source
        self.reason = reason


def _clean_value(value: str) -> str:
    text = _BRACES.sub("", value)
    for escaped, plain in _ESCAPES.items():
        text = text.replace(escaped, plain)
    return collapse_spaces(text)


def source_find_duplicate(
    *, arxiv_id: str = "", doi: str = "", title: str = "", short_name: str = "", exclude_pk: int | None = None
) -> tuple[Source, str] | None:
    """An existing source with the same arXiv ID, DOI, normalised title or short name, and why it matches (one query).

    The short name counts because citations and lists show it: a BibTeX entry titled “ALFWorld: Aligning…”
    is the “ALFWorld” a citation already created, and two sources of one name cannot be told apart.
    """
    arxiv = normalize_arxiv_id(arxiv_id) if arxiv_id else None
    norm_doi = normalize_doi(doi) if doi else None
    norm_title = normalize_title(title) if title else ""
    name = short_name.strip()
    condition = Q()
    if arxiv:
        condition |= Q(arxiv_id=arxiv)
    if norm_doi:
        condition |= Q(doi=norm_doi)
    if norm_title:
        condition |= Q(normalized_title=norm_title)
    if name:
        condition |= Q(short_name__iexact=name)
    if not condition:
        return None
    candidates = Source.objects.filter(condition)
    if exclude_pk is not None:
        candidates = candidates.exclude(pk=exclude_pk)
    for source in candidates.order_by("pk")[:5]:
        if arxiv and source.arxiv_id == arxiv:
            return source, f"same arXiv ID {arxiv}"
        if norm_doi and source.doi == norm_doi:
            return source, f"same DOI {norm_doi}"
        if norm_title and source.normalized_title == norm_title:
            return source, "same title"
        if name and source.short_name.lower() == name.lower():
            return source, f"same short name “{source.short_name}”"
    return None


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
        title=title[:500],
        short_name=short_name_from_title(title) if title else key,
        kind=kind,
        authors=authors,
        year=year,
        venue=(get.get("booktitle") or get.get("journal") or get.get("publisher") or "")[:300],
        url=get.get("url", "") or (f"https://arxiv.org/abs/{arxiv}" if arxiv else ""),
        arxiv_id=arxiv,
        doi=doi,
        bibtex_key=key[:200],
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


def _validated(draft: SourceDraft) -> Source:
    """An unsaved source from the draft, validated like the form would (lengths, URL, year, constraints)."""
    fields = draft.as_fields()
    fields["short_name"] = (fields["short_name"] or short_name_from_title(draft.title))[:200]
    source = Source(slug=unique_source_slug(fields["short_name"]), **fields)
    source.normalized_title = normalize_title(source.title)
    source.full_clean()
    return source


@transaction.atomic
def source_create(*, draft: SourceDraft, user: object | None = None, action: str = ChangeEvent.Action.CREATED) -> Source:
    """Saves a new source; raises :class:`SourceDuplicate` when it exists, ``ValidationError`` on bad fields."""
    sources_lock_creation()
    duplicate = source_find_duplicate(
        arxiv_id=draft.arxiv_id, doi=draft.doi, title=draft.title,
        short_name=draft.short_name or (short_name_from_title(draft.title) if draft.title else ""),
    )
    if duplicate is not None:
        raise SourceDuplicate(*duplicate)
    source = _validated(draft)
    source.save()
    change_record(
        kind=ChangeEvent.Kind.SOURCE, action=action, obj=source, label=source.short_name,
        url=source.get_absolute_url(), summary=source.title, user=user,
    )
    search_reindex_sources([source.pk])
    return source


@transaction.atomic
def source_update(*, source: Source, fields: dict[str, Any], user: object | None = None, summary: str = "",
                  loaded_at: datetime | None = None) -> Source:
    """Changes a source's fields; duplicates of another source are refused like on creation.

    ``loaded_at`` is the source's ``updated_at`` when the editor opened the form; a save since raises
    :class:`StaleEdit` and nothing is written. The row is locked and re-read, so ``fields`` are applied to what is
    saved now, not to the caller's copy: a concurrent change of other fields is kept. Returns the saved source.
    """
    source = Source.objects.select_for_update().get(pk=source.pk)
    check_not_stale(source, loaded_at=loaded_at)
    duplicate = source_find_duplicate(
        arxiv_id=fields.get("arxiv_id", source.arxiv_id), doi=fields.get("doi", source.doi),
        title=fields.get("title", source.title), short_name=fields.get("short_name", source.short_name), exclude_pk=source.pk,
    )
    if duplicate is not None:
        raise SourceDuplicate(*duplicate)
    changed = [name for name, value in fields.items() if getattr(source, name) != value]
    for name, value in fields.items():
        setattr(source, name, value)
    source.full_clean(exclude=["slug"])
    source.save()
    change_record(
        kind=ChangeEvent.Kind.SOURCE, action=ChangeEvent.Action.EDITED, obj=source, label=source.short_name,
        url=source.get_absolute_url(), summary=summary or ("changed " + ", ".join(changed) if changed else "no change"),
        user=user,
    )
    search_reindex_sources([source.pk])
    return source


def _messages(error: ValidationError) -> str:
    if hasattr(error, "error_dict"):
        return "; ".join(f"{name}: {' '.join(msgs)}" for name, msgs in error.message_dict.items())
    return "; ".join(error.messages)


def sources_import_bibtex(*, text: str, user: object | None = None) -> list[ImportResult]:
    """Imports every entry in its own transaction and reports per entry: created, duplicate or error."""
    results: list[ImportResult] = []
    for entry in parse_bibtex(text):
        if entry.errors or entry.draft is None:
            results.append(ImportResult(entry.label, "error", message="; ".join(entry.errors), line=entry.line, raw=entry.raw))
            continue
        try:
            source = source_create(draft=entry.draft, user=user, action=ChangeEvent.Action.IMPORTED)
        except SourceDuplicate as duplicate:
            results.append(ImportResult(entry.label, "duplicate", duplicate.source, duplicate.reason, entry.line))
        except ValidationError as error:
            results.append(ImportResult(entry.label, "error", message=_messages(error), line=entry.line, raw=entry.raw))
        else:
            results.append(ImportResult(entry.label, "created", source, line=entry.line))
    return results
