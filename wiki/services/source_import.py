"""Importing a reference file (BibTeX/biblatex, CSL-JSON, RIS) in one transaction, with a report per entry.

Each entry is created, found to be a work the wiki (or an earlier entry of the same file) already has, or refused
with its reason and line. Works are named as when an editor adds one: a short name is one work's (pages cite works
by it; :mod:`wiki.services.source_import_names`), a slug comes from the title when the short name gives none, and a
key the exports could not use is made usable, the report saying so. A field mended or left out to import an entry
(a DOI that is no DOI, a second URL, control characters) is a warning, not a refusal. A work found already in the
wiki comes with each field the file gives otherwise (:mod:`wiki.references.updates`), for the editor to take.

The whole file is one transaction: when the request fails, nothing of it is kept. It is imported in batches of at
most :data:`~wiki.references.formats.MAX_IMPORT_ENTRIES` entries, and the queries do not grow with a batch: one for
the candidate duplicates, one or two for the short names, one for the slugs, one for the keys, then bulk inserts.
Each import is recorded (:class:`~wiki.models.SourceImport`: who, when, what came of its entries, the works it
created), so that it can be undone as a whole (:mod:`wiki.services.source_import_undo`).

A file of at most one batch can be previewed first (:func:`sources_import_preview`): the report the import would give,
read without writing anything. Its :attr:`ImportReport.digest` sums up what the import would do; confirmed with that
digest, an import that would now do anything else (the wiki changed meanwhile) raises :class:`ImportChanged` and
writes nothing.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.db.models.functions import Lower
from django.utils.translation import gettext, ngettext, pgettext

from wiki.field_labels import field_label_of
from wiki.models import ChangeEvent, Source, SourceImport
from wiki.models.rules import BIBTEX_KEY, max_length
from wiki.references.bibtex import ParsedEntry
from wiki.references.formats import MAX_IMPORT_ENTRIES, ReferenceFormat, parse_references
from wiki.references.identifiers import short_name_key
from wiki.references.matching import HeadClaims, WorkIndex
from wiki.references.updates import FieldUpdate, offered_updates
from wiki.roles import User, account
from wiki.search.index import search_reindex_sources
from wiki.services.changes import change_event
from wiki.services.source_import_names import ShortNames, head_or_short_name, own_names, told_apart_note
from wiki.services.sources import (
    duplicate_candidates,
    find_source,
    sources_lock_creation,
    taken_source_slugs,
    unique_source_slug,
)


class ImportStatus(StrEnum):
    CREATED = "created"
    DUPLICATE = "duplicate"
    REFUSED = "refused"


@dataclass(frozen=True)
class ImportResult:
    """What became of one entry: created, a duplicate (of ``source``) or refused (``message`` says why); a created
    entry's ``message`` says what of it was changed to be saved (a key the exports could not use, a short name told
    apart from another work's)."""

    label: str
    status: ImportStatus
    source: Source | None = None
    message: str = ""
    line: int | None = None
    raw: str = ""  # the entry as written, offered again to fix when it was refused
    missing: dict[str, str] = field(default_factory=dict)  # identifiers a duplicate brings that ``source`` lacks
    warnings: list[str] = field(default_factory=list)  # what was mended or left out to read the entry
    # For a work already in the wiki: each field the entry gives otherwise, for the editor to take.
    updates: list[FieldUpdate] = field(default_factory=list)
    # For a work created: another it may be the same as, and why, for the editor to merge them if it is.
    possible: Source | None = None
    possible_reason: str = ""

    @property
    def is_version(self) -> bool:
        return bool(self.missing)


def _outcome(result: ImportResult) -> list[object]:
    """What an entry's result does to the wiki, in no language: its status, the work it creates (name, address, key)
    or is found to be, what that work would be offered, and the work a new one may be the same as."""
    source, possible = result.source, result.possible
    made = [source.short_name, source.bibtex_key] if source is not None and result.status is ImportStatus.CREATED else []
    return [result.status.value, result.label, result.line, source.slug if source is not None else None, *made,
            sorted(result.missing.items()), [[u.name, u.current, u.offered] for u in result.updates],
            possible.slug if possible is not None else None]


@dataclass(frozen=True)
class ImportReport:
    format: ReferenceFormat
    results: list[ImportResult]
    # The import's record; None for a preview, which writes nothing.
    record: SourceImport | None = None

    def of(self, status: ImportStatus) -> list[ImportResult]:
        return [result for result in self.results if result.status == status]

    @property
    def counts(self) -> dict[str, int]:
        return {status.value: len(self.of(status)) for status in ImportStatus}

    @property
    def refuses_all(self) -> bool:
        """Whether every entry is refused: importing the file would do nothing."""
        return bool(self.results) and all(result.status is ImportStatus.REFUSED for result in self.results)

    @property
    def nothing_imported(self) -> str:
        """What to say of a file whose every entry was refused (each result says why); blank for any other."""
        count = len(self.results)
        return ngettext("Nothing was imported: the file's one entry was refused.",
                        "Nothing was imported: each of the file's %(count)s entries was refused.",
                        count) % {"count": count} if self.refuses_all else ""

    @property
    def digest(self) -> str:
        """A fingerprint of what the import does, the same for its preview and for the import itself while the wiki
        does not change: any other outcome of any entry gives another."""
        outcomes = [self.format.value, *(_outcome(result) for result in self.results)]
        return hashlib.sha256(json.dumps(outcomes, ensure_ascii=False, default=str).encode()).hexdigest()


class ImportChanged(Exception):
    """The import would not do what its preview showed (``expected`` is the preview's digest): the wiki changed since.
    Nothing was written."""

    def __init__(self, expected: str) -> None:
        super().__init__(expected)
        self.expected = expected


def _messages(error: ValidationError) -> str:
    """The error's messages as one line in the reader's language, each field's under its label."""
    if hasattr(error, "error_dict"):
        return _clauses(" ".join(msgs) if name == NON_FIELD_ERRORS
                        else gettext("%(label)s: %(error)s") % {"label": field_label_of(name), "error": " ".join(msgs)}
                        for name, msgs in error.message_dict.items())
    return _clauses(error.messages)


def _clauses(messages: Iterable[str]) -> str:
    return pgettext("clause separator", "; ").join(messages)


def _lined(entry: ParsedEntry) -> list[str]:
    """The entry's problems, each about a field on another line than the entry's first given that line."""
    return [problem if (line := entry.line_of(problem)) == entry.line
            else gettext("%(problem)s (line %(line)s)") % {"problem": problem, "line": line}
            for problem in entry.errors]


_ASCII_LETTER = re.compile(r"[A-Za-z]")


def usable_bibtex_key(key: str) -> str:
    """``key`` as BibTeX and the exports can use it (:data:`~wiki.models.rules.BIBTEX_KEY`): unchanged when it is,
    else accents dropped and each run of other characters a hyphen (``Müller 2020`` → ``Muller-2020``); blank when
    that leaves no letter (a key in Chinese), for the work's slug to take its place."""
    if not key or re.fullmatch(BIBTEX_KEY, key):
        return key
    ascii_key = unicodedata.normalize("NFKD", key).encode("ascii", "ignore").decode()
    kept = "".join(char if re.fullmatch(BIBTEX_KEY, char) else " " for char in ascii_key)
    usable = "-".join(kept.split())[: max_length(Source, "bibtex_key")].strip("-")
    return usable if _ASCII_LETTER.search(usable) else ""


def _keys_of_their_own(created: list[Source], results: list[ImportResult]) -> None:
    """A new work whose key is another work's already (in any case, as BibTeX compares keys) gets one of its own,
    the report saying which: the exports would otherwise write it under its slug, and a ``\\cite`` of the key as
    the file had it would find the other work. One query."""
    wanted = {source.bibtex_key.lower() for source in created if source.bibtex_key}
    if not wanted:
        return
    holders: dict[str, str] = {}
    for key, name in Source.all_objects.annotate(key=Lower("bibtex_key")).filter(key__in=wanted).order_by("-pk") \
            .values_list("key", "short_name"):
        holders[key] = name  # the oldest work of a key last, so that it names the key
    used = set(holders)
    for index, result in enumerate(results):
        source = result.source
        if result.status is not ImportStatus.CREATED or source is None or source.bibtex_key.lower() not in used:
            continue
        written = source.bibtex_key
        source.bibtex_key = next(key for n in range(2, len(used) + len(created) + 3)
                                 if (key := f"{written}-{n}"[: max_length(Source, "bibtex_key")]).lower() not in used)
        used.add(source.bibtex_key.lower())
        said = gettext("the key “%(key)s” is %(work)s's already: this work is saved with the key “%(saved)s”") % {
            "key": written, "work": holders.get(written.lower(), written), "saved": source.bibtex_key}
        results[index] = replace(result, message=_clauses(filter(None, (result.message, said))))


def _unsaved_source(entry: ParsedEntry) -> Source:
    """The entry as a validated, unsaved source (field rules, URL, identifiers); raises ``ValidationError``. A key the
    exports cannot use is made usable (:func:`usable_bibtex_key`)."""
    assert entry.draft is not None
    fields = entry.draft.as_fields()
    fields["short_name"] = head_or_short_name(entry.draft)
    fields["bibtex_key"] = usable_bibtex_key(fields["bibtex_key"])
    source = Source(slug="unsaved", **fields)
    # The duplicate checks above stand in for the unique constraints, which would cost a query per entry.
    source.full_clean(validate_unique=False, validate_constraints=False)
    source.derive_keys()  # bulk_create skips save(), which derives them
    return source


def _repeated_keys(entries: list[ParsedEntry]) -> set[str]:
    """The keys more than one entry of the file gives (in any case): none of them names one record."""
    seen: set[str] = set()
    repeated: set[str] = set()
    for entry in entries:
        if entry.draft is not None and (key := entry.draft.bibtex_key.lower()):
            (repeated if key in seen else seen).add(key)
    return repeated


@dataclass
class _File:
    """What the import of one file knows across its batches."""

    user: User | None
    own_in_file: dict[str, int] = field(default_factory=dict)
    repeated_keys: set[str] = field(default_factory=set)
    names_in_file: dict[str, tuple[int, Source]] = field(default_factory=dict)  # each new work's folded name
    # The line of each work created: by id() until it is saved, then by its primary key.
    unsaved_lines: dict[int, int] = field(default_factory=dict)
    saved_lines: dict[int, int] = field(default_factory=dict)

    def line_of(self, work: Source) -> int | None:
        return self.unsaved_lines.get(id(work)) if work.pk is None else self.saved_lines.get(work.pk)


@dataclass(frozen=True)
class _Candidates:
    """A batch's candidate duplicates by citation key (in any case) and by identifier, so that each entry reads the
    few that share one rather than every candidate of the file."""

    by_key: dict[str, list[Source]]
    by_identifier: dict[str, list[Source]]

    @classmethod
    def of(cls, candidates: list[Source]) -> _Candidates:
        by_key: dict[str, list[Source]] = {}
        by_identifier: dict[str, list[Source]] = {}
        for candidate in candidates:
            if candidate.bibtex_key:
                by_key.setdefault(candidate.bibtex_key.lower(), []).append(candidate)
            for value in filter(None, {candidate.arxiv_id, candidate.doi}):
                by_identifier.setdefault(value, []).append(candidate)
        return cls(by_key, by_identifier)

    def keyed(self, key: str, file: _File) -> list[Source]:
        """The saved works (other than this file's) holding ``key``, one per work a merged one lives on as."""
        if not key or key.lower() in file.repeated_keys:
            return []
        holders: dict[int, Source] = {}
        for candidate in self.by_key.get(key.lower(), []):
            work = candidate.merged_into or candidate
            if work.pk not in file.saved_lines:
                holders.setdefault(work.pk, candidate)
        return list(holders.values())

    def key_held_elsewhere(self, key: str, work: Source) -> bool:
        """Whether a candidate other than ``work``, and not merged into it, has ``key``."""
        return any(c.pk != work.pk and (c.merged_into_id or c.pk) != work.pk for c in self.by_key.get(key.lower(), []))

    def identifier_held_elsewhere(self, value: str, work: Source) -> bool:
        """Whether another row has ``value`` as its arXiv ID or DOI (a work merged into ``work`` keeps its own)."""
        return any(c.pk != work.pk for c in self.by_identifier.get(value, []))


def _updates(entry: ParsedEntry, work: Source, candidates: _Candidates, *, in_file: bool) -> list[FieldUpdate]:
    """What the entry gives otherwise than ``work``: no identifier another row has, and its key only when no other
    work has it and ``work`` is not one an earlier entry of the file created (which has that entry's key)."""
    assert entry.draft is not None
    draft = replace(entry.draft, bibtex_key=usable_bibtex_key(entry.draft.bibtex_key))
    return [update for update in offered_updates(draft, work)
            if not (update.name == "bibtex_key" and (in_file or candidates.key_held_elsewhere(update.offered, work)))
            and not (update.name in ("arxiv_id", "doi") and candidates.identifier_held_elsewhere(update.offered, work))]


def _plan_batch(entries: list[ParsedEntry], file: _File) -> tuple[list[ImportResult], list[Source]]:
    """What becomes of each entry, and the works to create, unsaved: nothing is written."""
    drafts = [entry.draft for entry in entries if entry.draft is not None and not entry.errors]
    candidates = duplicate_candidates(drafts, keys=[d.bibtex_key for d in drafts
                                                    if d.bibtex_key.lower() not in file.repeated_keys])
    # The works an entry may be: the candidates, then each work an earlier entry creates.
    known = WorkIndex(candidates)
    looked_up = _Candidates.of(candidates)
    heads = HeadClaims()
    names = ShortNames(drafts, own_in_file=file.own_in_file, in_file=file.names_in_file)
    results: list[ImportResult] = []
    created: list[Source] = []
    keys_made: dict[int, str] = {}  # for the result at each index, the key as written, when it was not usable
    numbered: list[tuple[int, str, Source | None, int | None]] = []  # results whose name is to be numbered
    for entry in entries:
        if entry.errors or entry.draft is None:
            results.append(ImportResult(entry.label, ImportStatus.REFUSED, message=_clauses(_lined(entry)), line=entry.line,
                                        raw=entry.raw, warnings=entry.warnings))
            continue
        match = find_source(entry.draft, heads.open_to(entry.draft, known.possible(entry.draft)),
                            keyed=looked_up.keyed(entry.draft.bibtex_key, file))
        if match is None and entry.repeats is not None:
            # Both lines named in the one sentence: the key's own (this entry's) and the earlier entry's.
            repeated = gettext("the key %(key)s on line %(line)s is already that of another work, the entry on line "
                               "%(earlier)s") % {"key": entry.label, "line": entry.field_line("bibtex_key"),
                                                 "earlier": entry.repeats}
            results.append(ImportResult(entry.label, ImportStatus.REFUSED, line=entry.line, raw=entry.raw,
                                        message=repeated, warnings=entry.warnings))
            continue
        if match is not None:
            work: Source = match.work  # type: ignore[assignment]
            heads.claim(entry.draft, work)
            reason, line = match.reason, file.line_of(work)
            if line is not None:
                reason = gettext("repeats the entry on line %(line)s (%(reason)s)") % {"line": line, "reason": reason}
            results.append(ImportResult(entry.label, ImportStatus.DUPLICATE, work, reason, entry.line, missing=match.missing,
                                        warnings=entry.warnings,
                                        updates=_updates(entry, work, looked_up, in_file=line is not None)))
            continue
        try:
            source = _unsaved_source(entry)
            naming = names.name(source)
        except ValidationError as error:
            results.append(ImportResult(entry.label, ImportStatus.REFUSED, message=_messages(error), line=entry.line,
                                        raw=entry.raw, warnings=entry.warnings))
            continue
        source.short_name = naming.name
        if naming.numbered:
            numbered.append((len(results), naming.name, naming.other, naming.other_line))
        else:
            file.names_in_file[short_name_key(source.short_name)] = (entry.line, source)
        file.unsaved_lines[id(source)] = entry.line
        known.add(source)
        created.append(source)
        if source.bibtex_key != entry.draft.bibtex_key:
            keys_made[len(results)] = entry.draft.bibtex_key
        results.append(ImportResult(entry.label, ImportStatus.CREATED, source, naming.note, line=entry.line,
                                    warnings=entry.warnings, possible=naming.possible,
                                    possible_reason=naming.possible_reason))
    for (index, base, other, line), name in zip(numbered, names.number([base for _, base, *_ in numbered]), strict=True):
        named = results[index].source
        assert named is not None
        named.short_name = name
        named.derive_keys()
        file.names_in_file[short_name_key(name)] = (results[index].line or 0, named)
        results[index] = replace(results[index], message=told_apart_note(base, name, other, line))
    taken = taken_source_slugs(created)
    for source in created:
        source.slug = unique_source_slug(source, taken=taken)
    for index, written in keys_made.items():
        keyed = results[index].source
        assert keyed is not None
        # A key with no letter to keep (in Chinese) is the slug, which the exports would use for a work without one.
        keyed.bibtex_key = keyed.bibtex_key or keyed.slug
        said = gettext("“%(key)s” cannot be a BibTeX key: the work is saved with the key “%(saved)s”") % {
            "key": written, "saved": keyed.bibtex_key}
        results[index] = replace(results[index], message=_clauses(filter(None, (results[index].message, said))))
    _keys_of_their_own(created, results)
    return results, created


def _save_batch(created: list[Source], file: _File) -> None:
    Source.objects.bulk_create(created)
    for source in created:
        file.saved_lines[source.pk] = file.unsaved_lines.pop(id(source))
    ChangeEvent.objects.bulk_create(
        change_event(kind=ChangeEvent.Kind.SOURCE, action=ChangeEvent.Action.IMPORTED, obj=source, label=source.short_name,
                     url=source.get_absolute_url(), summary=source.title, user=file.user)
        for source in created
    )
    search_reindex_sources([source.pk for source in created])


def sources_import_preview(*, text: str, fmt: ReferenceFormat | None = None) -> ImportReport:
    """What importing ``text`` would do now, entry by entry, with nothing written (the works to create are unsaved);
    raises :class:`~wiki.references.formats.ReferencesRefused` as :func:`sources_import` does. At most one batch:
    :data:`~wiki.references.formats.MAX_IMPORT_ENTRIES` entries."""
    fmt, entries = parse_references(text, fmt, max_entries=MAX_IMPORT_ENTRIES)
    file = _File(None, own_in_file=own_names(entries), repeated_keys=_repeated_keys(entries))
    results, _ = _plan_batch(entries, file)
    return ImportReport(format=fmt, results=results)


@transaction.atomic
def sources_import(*, text: str, fmt: ReferenceFormat | None = None, user: User | None = None,
                   max_entries: int | None = MAX_IMPORT_ENTRIES, expect: str | None = None,
                   via: str = SourceImport.Via.COMMAND, file_name: str = "") -> ImportReport:
    """Imports every entry of ``text`` and records the import; raises
    :class:`~wiki.references.formats.ReferencesRefused` for a file that cannot be imported at all (too large, more than
    ``max_entries`` entries, no format the wiki reads), with nothing written. ``max_entries`` None takes a file of any
    number of entries (the command line's), in batches. With ``expect``, the digest of the preview the editor
    confirmed: an import that would do anything else raises :class:`ImportChanged`, and nothing is kept. A file
    whose every entry is refused is not recorded: its report has no ``record``."""
    fmt, entries = parse_references(text, fmt, max_entries=max_entries)
    sources_lock_creation()
    file = _File(user, own_in_file=own_names(entries), repeated_keys=_repeated_keys(entries))
    results: list[ImportResult] = []
    for start in range(0, len(entries), MAX_IMPORT_ENTRIES):
        batch, created = _plan_batch(entries[start:start + MAX_IMPORT_ENTRIES], file)
        if expect is not None and len(entries) <= MAX_IMPORT_ENTRIES \
                and ImportReport(format=fmt, results=batch).digest != expect:
            raise ImportChanged(expect)
        _save_batch(created, file)
        results += batch
    report = ImportReport(format=fmt, results=results)
    if expect is not None and report.digest != expect:
        raise ImportChanged(expect)  # the whole transaction, every batch written, is rolled back
    if report.refuses_all:
        return report  # no import recorded: one of no entry would only crowd the list of imports
    counts = report.counts
    record = SourceImport.objects.create(
        user=account(user), via=via, format=fmt.value, file_name=file_name[:255], entries=len(results),
        created_count=counts[ImportStatus.CREATED], duplicate_count=counts[ImportStatus.DUPLICATE],
        refused_count=counts[ImportStatus.REFUSED],
        created_ids=[r.source.pk for r in report.of(ImportStatus.CREATED) if r.source is not None])
    return replace(report, record=record)
