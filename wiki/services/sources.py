"""Sources: created from a draft, from BibTeX or from the titles a page cites, changed, and found as duplicates.

A duplicate is the same work as a librarian judges it (:mod:`wiki.references.matching`): same arXiv ID (any
version), same DOI, or the same normalised title with compatible year and first author; never a short name alone.
Reference files are imported by :mod:`wiki.services.source_import`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils.text import slugify
from django.utils.translation import gettext, gettext_lazy

from wiki import change_summaries
from wiki.change_summaries import Summary
from wiki.models import ChangeEvent, Source, SourceKind
from wiki.models.rules import fit
from wiki.references.draft import SourceDraft, short_name_from_title
from wiki.references.identifiers import arxiv_number, normalize_title, split_identifiers
from wiki.references.matching import Reference, WorkMatch, find_work, lookup_keys
from wiki.roles import User
from wiki.search.index import search_reindex_sources
from wiki.services.changes import StaleEdit, change_event, change_record


def sources_lock_creation() -> None:
    """Until the transaction ends, no one else creates a source: the duplicate and slug checks that precede an
    insert stay true, and two editors adding the same work at once get “duplicate” instead of a server error."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext('wiki.source.create'))")


def _slug_base(name: str) -> str:
    return slugify(name.replace(".", "-"))[:100] or "source"


def taken_source_slugs(names: Iterable[str]) -> set[str]:
    """The existing slugs that new sources named ``names`` could clash with, in one query."""
    bases = {_slug_base(name) for name in names}
    if not bases:
        return set()
    # slugify leaves only [a-z0-9_-], none of them special in a PostgreSQL regular expression outside brackets.
    pattern = rf"^({'|'.join(sorted(bases))})(-[0-9]+)?$"
    return set(Source.all_objects.filter(slug__regex=pattern).values_list("slug", flat=True))


def unique_source_slug(name: str, *, taken: set[str] | None = None) -> str:
    """A slug for a new source from its short name: ``MiMo-V2.6`` → ``mimo-v2-6``, made unique.

    ``taken`` (from :func:`taken_source_slugs`, grown with each slug handed out) saves the query
    when naming many sources at once.
    """
    base = _slug_base(name)
    taken = taken if taken is not None else taken_source_slugs([name])
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    taken.add(candidate)
    return candidate


def sources_by_title(titles: Iterable[str]) -> dict[str, Source]:
    """Existing sources for cited titles, matched by normalised title, else by an unambiguous short name.

    A page may cite a work by its short name (``（来源：SkillForge）``); that must find the source
    rather than create a second one. Two queries at most.
    """
    wanted = {title: normalize_title(title) for title in titles}
    found: dict[str, Source] = {}
    # A work merged into another is cited as the work it was merged into.
    for source in (Source.all_objects.filter(normalized_title__in=set(wanted.values()))
                   .filter(Q(deleted_at__isnull=True) | Q(merged_into__deleted_at__isnull=True, merged_into__isnull=False))
                   .select_related("merged_into").order_by(F("merged_into").asc(nulls_first=True), "pk")):
        found.setdefault(source.normalized_title, source.merged_into or source)
    matched = {title: found[norm] for title, norm in wanted.items() if norm in found}
    by_name = {title.lower(): title for title in wanted if title not in matched}
    if by_name:
        named: dict[str, list[Source]] = {}
        for source in Source.objects.annotate(name_folded=Lower("short_name")).filter(name_folded__in=set(by_name)):
            named.setdefault(source.name_folded, []).append(source)  # type: ignore[attr-defined]  # annotated above
        for folded, sources in named.items():
            if len(sources) == 1:
                matched[by_name[folded]] = sources[0]
    return matched


@transaction.atomic
def sources_ensure_for_titles(*, titles: Iterable[str], user: User | None = None) -> tuple[dict[str, Source], list[Source]]:
    """Matches each cited title to a source, creating the missing ones; returns the map and the new sources.

    Creates a work for any title it cannot match, however close to an existing one: pages cite through
    :func:`wiki.services.citations.citations_ensure`, which asks about close titles first.
    """
    titles = list(dict.fromkeys(titles))
    matched = sources_by_title(titles)
    if len(matched) < len(titles):
        sources_lock_creation()
        matched = sources_by_title(titles)
    created = sources_create_for_titles(titles=[title for title in titles if title not in matched], user=user)
    return {**matched, **created}, list(dict.fromkeys(created.values()))


def sources_create_for_titles(*, titles: Iterable[str], user: User | None = None) -> dict[str, Source]:
    """A new source for each cited title (titles equal once normalised share one), with its change entry.

    The caller holds :func:`sources_lock_creation` and has checked that no source has these titles.
    """
    missing = list(dict.fromkeys(titles))
    matched: dict[str, Source] = {}
    created: list[Source] = []
    taken = taken_source_slugs(short_name_from_title(title) for title in missing)
    for title in missing:
        if title in matched:
            continue
        short = short_name_from_title(title)
        source = Source(slug=unique_source_slug(short, taken=taken), short_name=short, title=title, kind=SourceKind.PAPER)
        # bulk_create skips save(), which derives the normalised title.
        source.normalized_title = normalize_title(title)
        matched[title] = source
        # the same normalised title may be cited twice in different forms
        for other in missing:
            if other not in matched and normalize_title(other) == source.normalized_title:
                matched[other] = source
        created.append(source)
    if not created:
        return matched
    Source.objects.bulk_create(created)
    ChangeEvent.objects.bulk_create(
        change_event(kind=ChangeEvent.Kind.SOURCE, action=ChangeEvent.Action.CREATED, obj=source, label=source.short_name,
                     url=source.get_absolute_url(), summary=change_summaries.summary("created_from_citation"), user=user)
        for source in created
    )
    search_reindex_sources([source.pk for source in created])
    return matched


class SourceDuplicate(Exception):
    """The work exists already as ``source``, for ``reason``; ``missing`` are identifiers it lacks (another version)."""

    def __init__(self, source: Source, reason: str, missing: dict[str, str] | None = None) -> None:
        super().__init__(f"{reason}: {source.short_name}")
        self.source = source
        self.reason = reason
        self.missing = missing or {}


def duplicate_candidates(references: Iterable[Reference], *, exclude_pk: int | None = None) -> list[Source]:
    """The existing sources any of ``references`` could be (same arXiv ID, DOI or normalised title), in one query."""
    arxiv, doi, titles = lookup_keys(references)
    condition = Q(pk__in=[])
    if arxiv:
        condition |= Q(arxiv_id__in=arxiv)
    # An old-style ID names one paper with or without its subject class (math/0309136, math.GT/0309136).
    old_style = sorted({arxiv_number(key) for key in arxiv if "/" in key and arxiv_number(key).isdigit()})
    if old_style:
        condition |= Q(arxiv_id__regex=rf"/({'|'.join(old_style)})$")
    if doi:
        condition |= Q(doi__in=doi)
    if titles:
        condition |= Q(normalized_title__in=titles)
    candidates = Source.objects.filter(condition).order_by("pk")
    if exclude_pk is not None:
        candidates = candidates.exclude(pk=exclude_pk)
    return list(candidates.only("id", "slug", "short_name", "title", "authors", "year", "arxiv_id", "doi", "kind"))


def source_find_duplicate(
    *, arxiv_id: str = "", doi: str = "", title: str = "", year: int | None = None, authors: str = "",
    exclude_pk: int | None = None,
) -> WorkMatch | None:
    """The existing source that is the same work (:mod:`wiki.references.matching`), with why, in one query.

    arXiv's own DOI (``10.48550/arXiv.2307.13854``) is looked for as the arXiv ID it names."""
    arxiv_id, doi = split_identifiers(arxiv_id, doi)
    reference = SourceDraft(title=title, authors=authors, year=year, arxiv_id=arxiv_id, doi=doi)
    return find_work(reference, duplicate_candidates([reference], exclude_pk=exclude_pk))


def _validated(draft: SourceDraft) -> Source:
    """An unsaved source from the draft, validated like the form would (lengths, URL, year, constraints)."""
    fields = draft.as_fields()
    fields["short_name"] = fit(Source, "short_name", fields["short_name"] or short_name_from_title(draft.title))
    source = Source(slug=unique_source_slug(fields["short_name"]), **fields)
    source.normalized_title = normalize_title(source.title)
    source.full_clean()
    return source


@transaction.atomic
def source_create(*, draft: SourceDraft, user: User | None = None, action: str = ChangeEvent.Action.CREATED) -> Source:
    """Saves a new source; raises :class:`SourceDuplicate` when it exists, ``ValidationError`` on bad fields.

    arXiv's own DOI is saved as the arXiv ID it names."""
    arxiv_id, doi = split_identifiers(draft.arxiv_id, draft.doi)
    draft = replace(draft, arxiv_id=arxiv_id, doi=doi)
    sources_lock_creation()
    duplicate = source_find_duplicate(arxiv_id=draft.arxiv_id, doi=draft.doi, title=draft.title, year=draft.year,
                                      authors=draft.authors)
    if duplicate is not None:
        raise SourceDuplicate(duplicate.work, duplicate.reason, duplicate.missing)  # type: ignore[arg-type]
    source = _validated(draft)
    source.save()
    change_record(
        kind=ChangeEvent.Kind.SOURCE, action=action, obj=source, label=source.short_name,
        url=source.get_absolute_url(), summary=source.title, user=user,
    )
    search_reindex_sources([source.pk])
    return source


class SourceDeleted(ValidationError):
    """The work being edited was deleted, or merged into another, meanwhile: nothing was saved. ``source`` is the
    deleted row, with who deleted it, when and why, and the work it was merged into."""

    def __init__(self, *, source: Source) -> None:
        if source.merged_into is not None:
            message = gettext_lazy("While you were editing, “%(name)s” was merged into “%(into)s”; nothing was saved.")
        else:
            message = gettext_lazy("While you were editing, “%(name)s” was deleted; nothing was saved.")
        into = source.merged_into.short_name if source.merged_into is not None else ""
        super().__init__(message, code="deleted", params={"name": source.short_name, "into": into})
        self.source = source


@dataclass(frozen=True)
class SourceSaved:
    """The source as saved. ``unchanged``: the fields were those saved already, so nothing was written."""

    source: Source
    unchanged: bool = False


# What decides whether two sources are the same work (:func:`source_find_duplicate`).
_IDENTITY_FIELDS = frozenset({"arxiv_id", "doi", "title", "year", "authors"})


def source_update(*, source: Source, fields: dict[str, Any], user: User | None = None, summary: str | Summary = "",
                  loaded_at: datetime | None = None) -> Source:
    """:func:`source_save`, for callers that need only the source."""
    return source_save(source=source, fields=fields, user=user, summary=summary, loaded_at=loaded_at).source


@transaction.atomic
def source_save(*, source: Source, fields: dict[str, Any], user: User | None = None, summary: str | Summary = "",
                loaded_at: datetime | None = None) -> SourceSaved:
    """Changes a source's fields; duplicates of another source are refused like on creation.

    ``loaded_at`` is the source's ``updated_at`` when the editor opened the form; a save since raises
    :class:`StaleEdit` and nothing is written. The row is locked and re-read, so ``fields`` are applied to what is
    saved now, not to the caller's copy: a concurrent change of other fields is kept. A work deleted or merged
    meanwhile raises :class:`SourceDeleted`. Fields that are all as saved (a repeated submission too) write
    nothing, and ``unchanged`` says so.
    """
    if _IDENTITY_FIELDS & fields.keys():
        # As on creation, so that the duplicate check below stays true until the save commits. Taken before the
        # row: a page save that creates works under this lock goes on to cite existing ones, which waits for
        # their row locks.
        sources_lock_creation()
    source = Source.all_objects.select_for_update().get(pk=source.pk)
    if source.is_deleted:
        raise SourceDeleted(source=Source.all_objects.select_related("deleted_by", "merged_into").get(pk=source.pk))
    if "arxiv_id" in fields or "doi" in fields:
        arxiv_id, doi = split_identifiers(fields.get("arxiv_id", source.arxiv_id), fields.get("doi", source.doi))
        fields = {**fields, "arxiv_id": arxiv_id, "doi": doi}
    before = {name: getattr(source, name) for name in fields}
    for name, value in fields.items():
        setattr(source, name, value)
    # Constraints are checked after the duplicate check, which names the other work.
    source.full_clean(exclude=["slug"], validate_constraints=False)
    changed = [name for name in fields if getattr(source, name) != before[name]]
    if not changed:
        return SourceSaved(source=source, unchanged=True)
    if loaded_at is not None and source.updated_at != loaded_at:
        # The conflict shows what is saved now, not the fields just applied to this copy.
        raise StaleEdit(Source.all_objects.get(pk=source.pk))
    duplicate = source_find_duplicate(arxiv_id=source.arxiv_id, doi=source.doi, title=source.title, year=source.year,
                                      authors=source.authors, exclude_pk=source.pk)
    if duplicate is not None:
        raise SourceDuplicate(duplicate.work, duplicate.reason, duplicate.missing)  # type: ignore[arg-type]
    source.validate_constraints()
    try:
        with transaction.atomic():
            source.save()
    except IntegrityError:
        # Written by something that skips the lock (the admin): the same answer as the check above.
        holder = Source.all_objects.filter(_identifier_clash(source)).exclude(pk=source.pk).first()
        if holder is None:
            raise
        raise SourceDuplicate(holder, gettext("same arXiv ID %(id)s") % {"id": source.arxiv_id} if holder.arxiv_id == source.arxiv_id
                              else gettext("same DOI %(doi)s") % {"doi": source.doi}) from None
    change_record(
        kind=ChangeEvent.Kind.SOURCE, action=ChangeEvent.Action.EDITED, obj=source, label=source.short_name,
        url=source.get_absolute_url(), summary=summary or change_summaries.summary("changed_fields", fields=changed),
        user=user,
    )
    search_reindex_sources([source.pk])
    return SourceSaved(source=source)


def _identifier_clash(source: Source) -> Q:
    condition = Q(pk__in=[])
    if source.arxiv_id:
        condition |= Q(arxiv_id=source.arxiv_id)
    if source.doi:
        condition |= Q(doi=source.doi)
    return condition
