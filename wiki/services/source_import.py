"""Importing a reference file (BibTeX/biblatex, CSL-JSON, RIS) in one transaction, with a report per entry.

Each entry is created, found to be a work the wiki (or an earlier entry of the same file) already has, or refused
with its reason and line. Works are named as when an editor adds one: a short name is one work's (pages cite works
by it), a slug comes from the title when the short name gives none, and a key the exports could not use is made
usable, the report saying so. The whole file is one transaction: when the request fails, nothing of it is kept. The
queries do not grow with the file: one for the candidate duplicates, one for the short names, one for the slugs, one for the keys,
then bulk inserts.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.db.models.functions import Lower
from django.utils.translation import gettext, pgettext

from wiki.models import ChangeEvent, Source
from wiki.models.rules import BIBTEX_KEY, fit, max_length
from wiki.references.bibtex import ParsedEntry
from wiki.references.draft import FIELD_LABELS, SourceDraft, short_name_from_title
from wiki.references.formats import ReferenceFormat, parse_references
from wiki.references.identifiers import short_name_key
from wiki.roles import User
from wiki.search.index import search_reindex_sources
from wiki.services.changes import change_event
from wiki.services.sources import (
    duplicate_candidates,
    find_source,
    sources_lock_creation,
    sources_named,
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
    entry's ``message`` says what of it was changed to be saved (a key the exports could not use)."""

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
    """The error's messages as one line in the reader's language, each field's under its label."""
    if hasattr(error, "error_dict"):
        return _clauses(" ".join(msgs) if name == NON_FIELD_ERRORS
                        else gettext("%(label)s: %(error)s") % {"label": FIELD_LABELS.get(name, name), "error": " ".join(msgs)}
                        for name, msgs in error.message_dict.items())
    return _clauses(error.messages)


def _clauses(messages: Iterable[str]) -> str:
    return pgettext("clause separator", "; ").join(messages)


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
    fields["short_name"] = _head_or_short_name(entry.draft)
    fields["bibtex_key"] = usable_bibtex_key(fields["bibtex_key"])
    source = Source(slug="unsaved", **fields)
    # The duplicate checks above stand in for the unique constraints, which would cost a query per entry.
    source.full_clean(validate_unique=False, validate_constraints=False)
    source.derive_keys()  # bulk_create skips save(), which derives them
    return source


def _head_or_short_name(draft: SourceDraft) -> str:
    return fit(Source, "short_name", draft.short_name or short_name_from_title(draft.title))


def _is_head(short_name: str, title: str) -> bool:
    """Whether ``short_name`` is only the head of ``title`` (``ReAct`` of ``ReAct: …``), not a name of its own."""
    return short_name == short_name_from_title(title) and fit(Source, "short_name", title) != short_name


def _own_names(entries: list[ParsedEntry]) -> dict[str, int]:
    """The short names entries give themselves (a short title, or a title that is its own name), folded: the line of
    the first to give each. A title's head yields to them wherever the entry stands in the file."""
    own: dict[str, int] = {}
    for entry in entries:
        draft = entry.draft
        if draft is not None and not entry.errors and not _is_head(draft.short_name, draft.title):
            own.setdefault(short_name_key(draft.short_name), entry.line)
    return own


def _own_short_name(source: Source, *, named: dict[str, list[Source]], in_file: dict[str, int],
                    own_in_file: dict[str, int]) -> str:
    """The short name the entry's work is saved under, that no live work nor other entry has: its own; when that
    is only its title's head (``ReAct`` of ``ReAct: …``), the whole title instead, as an editor's work is named, also
    when an entry later in the file calls itself by that head (``Survey`` after ``Survey: A``).

    An entry that names itself as another work is called is refused, as a key naming another work is: it is not that
    work (it would be a duplicate, found above), and pages cite works by short name, so it comes back to be given a
    short title of its own. Raises ``ValidationError``."""
    head = _is_head(source.short_name, source.title)
    names = [source.short_name, fit(Source, "short_name", source.title)] if head else [source.short_name]
    for name in names:
        key = short_name_key(name)
        yields = head and name == source.short_name and key in own_in_file
        if not key or (key not in named and key not in in_file and not yields):
            return name
    name = names[-1]  # the last name tried is another work's: the whole title of an entry named by its head
    key = short_name_key(name)
    if key in in_file:
        raise ValidationError(gettext("the short name “%(name)s” is that of another work, on line %(line)s: give this "
                                      "entry a short title of its own") % {"name": name, "line": in_file[key]},
                              code="short_name_taken")
    holder = named[key][0]
    raise ValidationError(gettext("the short name “%(name)s” is that of another work, “%(title)s”: give this entry a "
                                  "short title of its own") % {"name": name, "title": holder.title},
                          code="short_name_taken")


@transaction.atomic
def sources_import(*, text: str, fmt: ReferenceFormat | None = None, user: User | None = None) -> ImportReport:
    """Imports every entry of ``text``; raises :class:`~wiki.references.formats.ReferencesRefused` for a file that
    cannot be imported at all (too large, too many entries, no format the wiki reads), with nothing written."""
    fmt, entries = parse_references(text, fmt)
    sources_lock_creation()
    drafts = [entry.draft for entry in entries if entry.draft is not None and not entry.errors]
    known: list[Source] = list(duplicate_candidates(drafts))
    named = sources_named(name for draft in drafts
                          for name in (_head_or_short_name(draft), fit(Source, "short_name", draft.title)))
    names_in_file: dict[str, int] = {}  # the short name of each entry created, folded: its line
    own_in_file = _own_names(entries)
    new_by_line: dict[int, int] = {}
    results: list[ImportResult] = []
    created: list[Source] = []
    keys_made: dict[int, str] = {}  # for the result at each index, the key as written, when it was not usable
    for entry in entries:
        if entry.errors or entry.draft is None:
            results.append(ImportResult(entry.label, ImportStatus.REFUSED, message=_clauses(entry.errors), line=entry.line,
                                        raw=entry.raw))
            continue
        match = find_source(entry.draft, known)
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
            source.short_name = _own_short_name(source, named=named, in_file=names_in_file, own_in_file=own_in_file)
        except ValidationError as error:
            results.append(ImportResult(entry.label, ImportStatus.REFUSED, message=_messages(error), line=entry.line,
                                        raw=entry.raw))
            continue
        new_by_line[id(source)] = entry.line
        names_in_file[short_name_key(source.short_name)] = entry.line
        known.append(source)
        created.append(source)
        if source.bibtex_key != entry.draft.bibtex_key:
            keys_made[len(results)] = entry.draft.bibtex_key
        results.append(ImportResult(entry.label, ImportStatus.CREATED, source, line=entry.line))
    taken = taken_source_slugs(created)
    for source in created:
        source.slug = unique_source_slug(source, taken=taken)
    for index, written in keys_made.items():
        keyed = results[index].source
        assert keyed is not None
        # A key with no letter to keep (in Chinese) is the slug, which the exports would use for a work without one.
        keyed.bibtex_key = keyed.bibtex_key or keyed.slug
        results[index] = replace(results[index], message=gettext(
            "“%(key)s” cannot be a BibTeX key: the work is saved with the key “%(saved)s”")
            % {"key": written, "saved": keyed.bibtex_key})
    _keys_of_their_own(created, results)
    Source.objects.bulk_create(created)
    ChangeEvent.objects.bulk_create(
        change_event(kind=ChangeEvent.Kind.SOURCE, action=ChangeEvent.Action.IMPORTED, obj=source, label=source.short_name,
                     url=source.get_absolute_url(), summary=source.title, user=user)
        for source in created
    )
    search_reindex_sources([source.pk for source in created])
    return ImportReport(format=fmt, results=results)
