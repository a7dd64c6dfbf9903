"""Importing a reference file (BibTeX/biblatex, CSL-JSON, RIS) in one transaction, with a report per entry.

Each entry is created, found to be a work the wiki (or an earlier entry of the same file) already has, or refused
with its reason and line. The whole file is one transaction: when the request fails, nothing of it is kept. The
queries do not grow with the file: one for the candidate duplicates, one for the slugs, then bulk inserts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.utils.translation import gettext

from wiki.models import ChangeEvent, Source
from wiki.models.rules import fit
from wiki.references.bibtex import ParsedEntry
from wiki.references.draft import FIELD_LABELS, short_name_from_title
from wiki.references.formats import ReferenceFormat, parse_references
from wiki.references.identifiers import normalize_title
from wiki.references.matching import find_work
from wiki.roles import User
from wiki.search.index import search_reindex_sources
from wiki.services.changes import change_event
from wiki.services.sources import duplicate_candidates, sources_lock_creation, taken_source_slugs, unique_source_slug


class ImportStatus(StrEnum):
    CREATED = "created"
    DUPLICATE = "duplicate"
    REFUSED = "refused"


@dataclass(frozen=True)
class ImportResult:
    """What became of one entry: created, a duplicate (of ``source``) or refused (``message`` says why)."""

    label: str
    status: ImportStatus
    source: Source | None = None
    message: str = ""
    line: int | None = None
    raw: str = ""  # the entry as written, offered again to fix when it was refused
    missing: dict[str, str] = field(default_factory=dict)  # identifiers a duplicate brings that ``source`` lacks

    @property
    def is_version(self) -> bool:
        return bool(self.missing)


@dataclass(frozen=True)
class ImportReport:
    format: ReferenceFormat
    results: list[ImportResult]

    def of(self, status: ImportStatus) -> list[ImportResult]:
        return [result for result in self.results if result.status == status]

    @property
    def counts(self) -> dict[str, int]:
        return {status.value: len(self.of(status)) for status in ImportStatus}


def _messages(error: ValidationError) -> str:
    if hasattr(error, "error_dict"):
        return "; ".join(" ".join(msgs) if name == NON_FIELD_ERRORS else f"{FIELD_LABELS.get(name, name)}: {' '.join(msgs)}"
                         for name, msgs in error.message_dict.items())
    return "; ".join(error.messages)


def _unsaved_source(entry: ParsedEntry) -> Source:
    """The entry as a validated, unsaved source (field rules, URL, identifiers); raises ``ValidationError``."""
    assert entry.draft is not None
    fields = entry.draft.as_fields()
    fields["short_name"] = fit(Source, "short_name", fields["short_name"] or short_name_from_title(entry.draft.title))
    source = Source(slug="unsaved", **fields)
    # The duplicate checks above stand in for the unique constraints, which would cost a query per entry.
    source.full_clean(validate_unique=False, validate_constraints=False)
    source.normalized_title = normalize_title(source.title)
    return source


@transaction.atomic
def sources_import(*, text: str, fmt: ReferenceFormat | None = None, user: User | None = None) -> ImportReport:
    """Imports every entry of ``text``; raises :class:`~wiki.references.formats.ReferencesRefused` for a file that
    cannot be imported at all (too large, too many entries, no format the wiki reads), with nothing written."""
    fmt, entries = parse_references(text, fmt)
    sources_lock_creation()
    drafts = [entry.draft for entry in entries if entry.draft is not None and not entry.errors]
    known: list[Source] = list(duplicate_candidates(drafts))
    new_by_line: dict[int, int] = {}
    results: list[ImportResult] = []
    created: list[Source] = []
    for entry in entries:
        if entry.errors or entry.draft is None:
            results.append(ImportResult(entry.label, ImportStatus.REFUSED, message="; ".join(entry.errors), line=entry.line,
                                        raw=entry.raw))
            continue
        match = find_work(entry.draft, known)
        if match is None and entry.repeats is not None:
            results.append(ImportResult(entry.label, ImportStatus.REFUSED, line=entry.line, raw=entry.raw,
                                        message=gettext("the key %(key)s names another work on line %(line)s")
                                        % {"key": entry.label, "line": entry.repeats}))
            continue
        if match is not None:
            work: Source = match.work  # type: ignore[assignment]
            reason = match.reason
            if work.pk is None:
                reason = gettext("repeats the entry on line %(line)s (%(reason)s)") % {"line": new_by_line[id(work)], "reason": reason}
            results.append(ImportResult(entry.label, ImportStatus.DUPLICATE, work, reason, entry.line, missing=match.missing))
            continue
        try:
            source = _unsaved_source(entry)
        except ValidationError as error:
            results.append(ImportResult(entry.label, ImportStatus.REFUSED, message=_messages(error), line=entry.line,
                                        raw=entry.raw))
            continue
        new_by_line[id(source)] = entry.line
        known.append(source)
        created.append(source)
        results.append(ImportResult(entry.label, ImportStatus.CREATED, source, line=entry.line))
    taken = taken_source_slugs(source.short_name for source in created)
    for source in created:
        source.slug = unique_source_slug(source.short_name, taken=taken)
    Source.objects.bulk_create(created)
    ChangeEvent.objects.bulk_create(
        change_event(kind=ChangeEvent.Kind.SOURCE, action=ChangeEvent.Action.IMPORTED, obj=source, label=source.short_name,
                     url=source.get_absolute_url(), summary=source.title, user=user)
        for source in created
    )
    search_reindex_sources([source.pk for source in created])
    return ImportReport(format=fmt, results=results)
