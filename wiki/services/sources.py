"""Sources: created from a draft, from BibTeX or from the titles a page cites, changed, and found as duplicates.

A duplicate is the same work as a librarian judges it (:mod:`wiki.references.matching`): same arXiv ID (any
version, also when only the URL names it), same DOI, or the same normalised title with compatible year and first
author; never a short name alone. A short name is still one work's only (:func:`source_named`): pages cite works by it.
Reference files are imported by :mod:`wiki.services.source_import`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Protocol

from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import CharField, F, Func, Q, Value
from django.db.models.functions import Lower
from django.utils.text import slugify
from django.utils.translation import gettext, gettext_lazy

from wiki import change_summaries
from wiki.change_summaries import Summary
from wiki.models import ChangeEvent, Source, SourceKind
from wiki.models.rules import fit, max_length, validate_bibtex_key
from wiki.references.draft import SourceDraft, details_following_venue, draft_from_identifier, short_name_from_title
from wiki.references.identifiers import (
    arxiv_number,
    identifiers_from_url,
    normalize_title,
    short_name_key,
    split_identifiers,
)
from wiki.references.matching import Reference, WorkMatch, find_work, lookup_keys
from wiki.roles import User
from wiki.search.index import search_reindex_sources
from wiki.services.changes import StaleEdit, change_event, change_record
from wiki.text.lang import has_chinese
from wiki.text.slugs import ascii_slugify, cut_slug, numbered_slug, pinyin_slug


def sources_lock_creation() -> None:
    """Until the transaction ends, no one else creates a source: the duplicate and slug checks that precede an
    insert stay true, and two editors adding the same work at once get “duplicate” instead of a server error."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext('wiki.source.create'))")


class Named(Protocol):
    """What a new work's slug is made from: a source or a draft."""

    short_name: str
    title: str
    arxiv_id: str
    doi: str


_ASCII_LETTER = re.compile(r"[a-z]")
_PLUS = re.compile(r"\+")
_TITLE_SLUG_CHARS = 60
# A name's slug, and a Chinese reading kept whole rather than cut within a word, run to this many characters.
_NAME_SLUG_CHARS = 100


def _slug_base(work: str | Named) -> str:
    """The slug before it is made unique: from the short name; when that has nothing ASCII to give (``中文名字``,
    ``🙂``), from an English title (cut at a word within 60 characters), else from the short name or the title read
    in pinyin (``通义深度研究`` → ``tong-yi-shen-du-yan-jiu``; whole up to 100 characters, else cut where a word surely
    ends, not within 研究), else the arXiv ID or the DOI, else ``source``. A long name is cut at a word, too.

    A name or title mixing Chinese and Latin words is read whole in pinyin (``基于LLM的智能体`` →
    ``ji-yu-llm-de-zhi-neng-ti``), and ``+`` is ``plus`` (``REINFORCE++`` → ``reinforce-plus-plus``), so that neither
    takes a word's slug from another work. A short name that gives a slug always gives it, so each source's slug is
    what it always was."""
    if isinstance(work, str):
        work = SourceDraft(short_name=work)
    name = _PLUS.sub(" plus ", work.short_name)  # REINFORCE++ is not REINFORCE
    base = cut_slug(ascii_slugify(name.replace(".", "-")), _NAME_SLUG_CHARS)
    if base and has_chinese(name):
        # a Chinese name with a Latin word in it is read whole (基于LLM的智能体 → ji-yu-llm-de-zhi-neng-ti, not llm)
        return pinyin_slug(name, length=_TITLE_SLUG_CHARS, longer=_NAME_SLUG_CHARS) or base
    if base:
        return base
    title = ascii_slugify(work.title.replace(".", "-"))
    # a Chinese title with a Latin word in it is read in pinyin too (基于 GRPO 的网页智能体训练 is not grpo)
    if _ASCII_LETTER.search(title) and not has_chinese(work.title):
        return cut_slug(title, _TITLE_SLUG_CHARS)
    read = (pinyin_slug(work.short_name, length=_TITLE_SLUG_CHARS, longer=_NAME_SLUG_CHARS)
            or pinyin_slug(work.title, length=_TITLE_SLUG_CHARS, longer=_NAME_SLUG_CHARS))
    if read:
        return read
    for prefix, identifier in (("arxiv", work.arxiv_id), ("doi", work.doi)):
        identifier = slugify(re.sub(r"[./]", "-", identifier))
        if identifier:
            return f"{prefix}-{identifier}"[:100].strip("-")
    return "source"


def taken_source_slugs(names: Iterable[str | Named]) -> set[str]:
    """The existing slugs that new sources named ``names`` (short names, or the works themselves, whose title and
    identifiers make the slug when the short name cannot) could clash with, in one query."""
    bases = {_slug_base(name) for name in names}
    if not bases:
        return set()
    # A base, or a base numbered (``-2``): compared with each slug less its number, not matched as a regular expression
    # of every base, which PostgreSQL ran against each slug in turn (seconds for an import of a few hundred works).
    unnumbered = Func(F("slug"), Value(r"-[0-9]+$"), Value(""), function="regexp_replace", output_field=CharField())
    return set(Source.all_objects.annotate(unnumbered=unnumbered).filter(Q(slug__in=bases) | Q(unnumbered__in=bases))
               .values_list("slug", flat=True))


def unique_source_slug(name: str | Named, *, taken: set[str] | None = None) -> str:
    """A slug for a new source from its short name: ``MiMo-V2.6`` → ``mimo-v2-6``, made unique; given the work rather
    than its short name, a short name without ASCII letters or digits takes the slug of its title or identifier.

    ``taken`` (from :func:`taken_source_slugs`, grown with each slug handed out) saves the query
    when naming many sources at once.
    """
    base = _slug_base(name)
    taken = taken if taken is not None else taken_source_slugs([name])
    slug = numbered_slug(base, taken)
    taken.add(slug)
    return slug


def sources_by_title(titles: Iterable[str]) -> dict[str, Source]:
    """Existing sources for cited titles, matched by normalised title, else by an unambiguous short name (case,
    width and punctuation folded).

    A page may cite a work by its short name (``（来源：SkillForge）``) or by its arXiv ID or DOI
    (``（来源：2402.03300）``, ``arXiv:2402.03300v2``, ``10.48550/arXiv.2402.03300``); that must find the source
    rather than create a second one. Three queries at most.
    """
    wanted = {title: normalize_title(title) for title in titles}
    found: dict[str, Source] = {}
    # A work merged into another is cited as the work it was merged into.
    for source in (Source.all_objects.filter(normalized_title__in=set(wanted.values()))
                   .filter(Q(deleted_at__isnull=True) | Q(merged_into__deleted_at__isnull=True, merged_into__isnull=False))
                   .select_related("merged_into").order_by(F("merged_into").asc(nulls_first=True), "pk")):
        found.setdefault(source.normalized_title, source.merged_into or source)
    matched = {title: found[norm] for title, norm in wanted.items() if norm in found}
    unmatched = [title for title in wanted if title not in matched]
    # Folded as a new work's short name is checked (:func:`short_name_key`): a title cited as a work's short name in
    # another case, width or punctuation (``Tree GRPO`` for ``Tree-GRPO``) is that work, as the "did you mean"
    # matcher takes it to be too, rather than a second work of that name.
    named = _works_named(unmatched)
    for title in unmatched:
        holders = named.get(short_name_key(title), [])
        if len(holders) == 1:
            matched[title] = holders[0]
    matched.update(_sources_by_identifier([title for title in unmatched if title not in matched]))
    return matched


def _sources_by_identifier(titles: Iterable[str]) -> dict[str, Source]:
    """The live works whose arXiv ID or DOI each of ``titles`` is, read as the new-work form reads an identifier
    (:func:`~wiki.references.draft.draft_from_identifier`), or that a work with that identifier was merged into (the
    merged work keeps its identifiers); one query, none when no title is an identifier."""
    named = {title: draft for title in titles if (draft := draft_from_identifier(title))}
    if not named:
        return {}
    by_key: dict[tuple[str, str], Source] = {}
    for source in (Source.all_objects.filter(Q(arxiv_id__in={d.arxiv_id for d in named.values() if d.arxiv_id})
                                             | Q(doi__in={d.doi for d in named.values() if d.doi}))
                   .filter(Q(deleted_at__isnull=True) | Q(merged_into__deleted_at__isnull=True, merged_into__isnull=False))
                   .select_related("merged_into").order_by("pk")):
        by_key.setdefault(("arxiv", source.arxiv_id), source.merged_into or source)
        by_key.setdefault(("doi", source.doi), source.merged_into or source)
    found = {title: by_key.get(("arxiv", d.arxiv_id) if d.arxiv_id else ("doi", d.doi)) for title, d in named.items()}
    return {title: source for title, source in found.items() if source is not None}


def _works_named(names: Iterable[str]) -> dict[str, list[Source]]:
    """The works a citation by each of ``names`` as a short name may mean, by :func:`short_name_key`: the live works
    of that name, else the works that a work of that name was merged into (a page citing a merged work by its old
    short name cites the work it became, not a new one of that name). One query, none without names."""
    keys = {key for name in names if (key := short_name_key(name))}
    if not keys:
        return {}
    live: dict[str, list[Source]] = {}
    merged: dict[str, list[Source]] = {}
    for source in (Source.all_objects.filter(name_key__in=keys)
                   .filter(Q(deleted_at__isnull=True) | Q(merged_into__deleted_at__isnull=True, merged_into__isnull=False))
                   .select_related("merged_into").order_by("pk")):
        if source.merged_into is None:
            live.setdefault(source.name_key, []).append(source)
        elif source.merged_into not in (became := merged.setdefault(source.name_key, [])):
            became.append(source.merged_into)
    return {key: live.get(key) or merged[key] for key in live.keys() | merged.keys()}


def sources_named(names: Iterable[str]) -> dict[str, list[Source]]:
    """The live works by the :func:`short_name_key` of their short name, oldest first, for a look-up of each of
    ``names`` by its key; in one query on the stored key (none without names). Two works under one key were named
    before a short name had to be one work's."""
    keys = {key for name in names if (key := short_name_key(name))}
    if not keys:
        return {}
    named: dict[str, list[Source]] = {}
    for source in Source.objects.filter(name_key__in=keys).order_by("pk"):
        named.setdefault(source.name_key, []).append(source)
    return named


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
    # the first of the titles equal once normalised names their work
    first_of: dict[str, str] = {}
    for title in missing:
        first_of.setdefault(normalize_title(title), title)
    firsts = list(first_of.values())
    names = _short_names_for_titles(firsts)
    drafts = [SourceDraft(short_name=names[title], title=title) for title in firsts]
    taken = taken_source_slugs(drafts)
    for title, draft in zip(firsts, drafts, strict=True):
        # a work cited by its arXiv ID or DOI alone has that identifier, its title to be filled in
        named = draft_from_identifier(title) or SourceDraft()
        source = Source(slug=unique_source_slug(draft, taken=taken), short_name=draft.short_name, title=title,
                        kind=SourceKind.PAPER, arxiv_id=named.arxiv_id, doi=named.doi)
        source.derive_keys()  # bulk_create skips save(), which derives them
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


def _short_names_for_titles(titles: list[str]) -> dict[str, str]:
    """A short name for the work each cited title creates that no live work, nor another of these, is called: the
    title's head (``SkillForge`` of ``SkillForge: …``), the whole title when another work is called that, as
    :func:`source_create` names a work, else the title numbered (``Title (2)``). One query.

    A title cited whole is never another work's short name (:func:`sources_by_title` would have found that work)
    unless two works share it from before names had to be one work's; titles that are their own short name are
    named first, so that one cited whole keeps its name rather than lose it to the head of a longer one."""
    heads = {title: short_name_from_title(title) for title in titles}
    wholes = {title: fit(Source, "short_name", title) for title in titles}
    taken = set(sources_named([*heads.values(), *wholes.values()]))
    limit = max_length(Source, "short_name")
    names: dict[str, str] = {}
    for title in sorted(titles, key=lambda title: heads[title] != wholes[title]):
        name, n = heads[title], 2
        if short_name_key(name) in taken:
            name = wholes[title]
        while short_name_key(name) in taken:
            suffix = f" ({n})"
            name, n = wholes[title][: limit - len(suffix)] + suffix, n + 1
        taken.add(short_name_key(name))
        names[title] = name
    return names


class SourceDuplicate(Exception):
    """The work exists already as ``source``, for ``reason``; ``missing`` are identifiers it lacks (another version)."""

    def __init__(self, source: Source, reason: str, missing: dict[str, str] | None = None) -> None:
        super().__init__(f"{reason}: {source.short_name}")
        self.source = source
        self.reason = reason
        self.missing = missing or {}


# What a match is judged by, and what an import compares with what it found (wiki.references.updates).
_CANDIDATE_FIELDS = ("id", "slug", "short_name", "title", "authors", "year", "arxiv_id", "doi", "kind", "bibtex_key",
                     "venue", "url", "abstract", "entry_type", "bibliographic", "extra_fields", "updated_at")


def duplicate_candidates(references: Iterable[Reference], *, exclude_pk: int | None = None,
                         keys: Iterable[str] = ()) -> list[Source]:
    """The existing sources any of ``references`` could be (same arXiv ID, DOI or normalised title, or one of ``keys``
    as their citation key in any case), other than ``exclude_pk`` and the works merged into it, in one query: the live ones first, then those merged into a live work (a
    merged work keeps its identifiers, which no other work may take), each with the work it was merged into;
    :func:`find_source` reads a match of one as that work."""
    arxiv, doi, titles = lookup_keys(references)
    condition = Q(pk__in=[])
    if keys := {key.lower() for key in keys if key}:
        condition |= Q(key_lower__in=keys)
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
    candidates = (Source.all_objects.annotate(key_lower=Lower("bibtex_key")).filter(condition)
                  .filter(Q(deleted_at__isnull=True) | Q(merged_into__isnull=False, merged_into__deleted_at__isnull=True))
                  .select_related("merged_into").order_by(F("merged_into").asc(nulls_first=True), "pk"))
    if exclude_pk is not None:
        # nor is a work a duplicate of one merged into it, whose title or identifiers it may well share
        candidates = candidates.exclude(Q(pk=exclude_pk) | Q(merged_into_id=exclude_pk))
    return list(candidates.only(*_CANDIDATE_FIELDS, "merged_into", *(f"merged_into__{name}" for name in _CANDIDATE_FIELDS)))


def find_source(reference: Reference, candidates: Iterable[Source], *, keyed: Sequence[Source] = ()) -> WorkMatch | None:
    """The work of ``candidates`` (:func:`duplicate_candidates`) that ``reference`` is, as :func:`find_work` finds it
    (``keyed``: the works holding its key); a match of a merged work is the work it was merged into, with no
    identifier to gain (they are the merged one's)."""
    match = find_work(reference, candidates, keyed=keyed)
    merged_into = getattr(match.work, "merged_into", None) if match is not None else None
    if match is not None and merged_into is not None:
        return replace(match, work=merged_into, missing={})
    return match


def source_identifiers(*, arxiv_id: str, doi: str, url: str = "") -> tuple[str, str]:
    """The arXiv ID and DOI a work is saved with: those given, normalised (:func:`split_identifiers`), each that is
    blank taken from the URL when it points at arxiv.org or doi.org, as an import reads a reference's URL."""
    arxiv_id, doi = split_identifiers(arxiv_id, doi)
    url_arxiv, url_doi = identifiers_from_url(url)
    return split_identifiers(arxiv_id or url_arxiv, doi or url_doi)


def source_find_duplicate(
    *, arxiv_id: str = "", doi: str = "", title: str = "", year: int | None = None, authors: str = "",
    exclude_pk: int | None = None,
) -> WorkMatch | None:
    """The existing source that is the same work (:mod:`wiki.references.matching`), with why, in one query.

    arXiv's own DOI (``10.48550/arXiv.2307.13854``) is looked for as the arXiv ID it names. Callers read the
    identifiers a URL names with :func:`source_identifiers` first."""
    arxiv_id, doi = split_identifiers(arxiv_id, doi)
    reference = SourceDraft(title=title, authors=authors, year=year, arxiv_id=arxiv_id, doi=doi)
    return find_source(reference, duplicate_candidates([reference], exclude_pk=exclude_pk))


class SourceNameTaken(SourceDuplicate):
    """Another work, ``source``, has the short name already: pages cite works by it, so it must name one work only."""

    def __init__(self, source: Source) -> None:
        super().__init__(source, gettext("same short name “%(name)s”") % {"name": source.short_name})


def source_named(short_name: str, *, exclude_pk: int | None = None) -> Source | None:
    """The live work whose short name is ``short_name`` once case, width, spacing and punctuation are folded, in one
    query on the stored key."""
    key = short_name_key(short_name)
    if not key:
        return None
    candidates = Source.objects.filter(name_key=key)
    if exclude_pk is not None:
        candidates = candidates.exclude(pk=exclude_pk)
    return candidates.order_by("pk").only("id", "slug", "short_name", "title").first()


def source_check_short_name(*, short_name: str, exclude_pk: int | None = None) -> None:
    """Raises :class:`SourceNameTaken` when another live work has this short name."""
    holder = source_named(short_name, exclude_pk=exclude_pk)
    if holder is not None:
        raise SourceNameTaken(holder)


def _short_name(draft: SourceDraft) -> str:
    """The draft's short name; left blank, the title's head (``SkillForge`` of ``SkillForge: …``), or the whole title
    when another work is called that already."""
    if draft.short_name:
        return draft.short_name
    short = short_name_from_title(draft.title)
    if short != draft.title and source_named(short) is not None:
        return fit(Source, "short_name", draft.title)
    return short


def _validated(draft: SourceDraft) -> Source:
    """An unsaved source from the draft, validated like the form would (lengths, URL, year, key, constraints)."""
    fields = draft.as_fields()
    fields["short_name"] = fit(Source, "short_name", fields["short_name"] or short_name_from_title(draft.title))
    source = Source(**fields)
    source.slug = unique_source_slug(source)
    source.normalized_title = normalize_title(source.title)
    source.full_clean()
    _check_bibtex_key(source.bibtex_key)
    return source


def _check_bibtex_key(key: str) -> None:
    try:
        validate_bibtex_key(key)
    except ValidationError as error:
        raise ValidationError({"bibtex_key": error}) from None


@transaction.atomic
def source_create(*, draft: SourceDraft, user: User | None = None, action: str = ChangeEvent.Action.CREATED) -> Source:
    """Saves a new source; raises :class:`SourceDuplicate` when it exists (:class:`SourceNameTaken` when another work
    has its short name), ``ValidationError`` on bad fields.

    arXiv's own DOI is saved as the arXiv ID it names; a blank arXiv ID or DOI is read from an arXiv or doi.org URL."""
    arxiv_id, doi = source_identifiers(arxiv_id=draft.arxiv_id, doi=draft.doi, url=draft.url)
    draft = replace(draft, arxiv_id=arxiv_id, doi=doi)
    sources_lock_creation()
    duplicate = source_find_duplicate(arxiv_id=draft.arxiv_id, doi=draft.doi, title=draft.title, year=draft.year,
                                      authors=draft.authors)
    if duplicate is not None:
        raise SourceDuplicate(duplicate.work, duplicate.reason, duplicate.missing)  # type: ignore[arg-type]
    draft = replace(draft, short_name=_short_name(draft))
    source_check_short_name(short_name=draft.short_name)
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


# What decides whether two sources are the same work (:func:`source_find_duplicate`), or would share a short name.
_IDENTITY_FIELDS = frozenset({"arxiv_id", "doi", "title", "year", "authors", "url", "short_name"})


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
    if "arxiv_id" in fields or "doi" in fields or "url" in fields:
        arxiv_id, doi = source_identifiers(arxiv_id=fields.get("arxiv_id", source.arxiv_id),
                                           doi=fields.get("doi", source.doi), url=fields.get("url", source.url))
        fields = {**fields, "arxiv_id": arxiv_id, "doi": doi}
    before = {name: getattr(source, name) for name in fields}
    for name, value in fields.items():
        setattr(source, name, value)
    if "venue" in fields and source.venue != before["venue"]:
        # the detail the venue was read from (a thesis' institution) follows it, rather than keep the old one
        source.bibliographic = details_following_venue(source.bibliographic, venue=source.venue, was=before["venue"])
    # Constraints are checked after the duplicate check, which names the other work.
    source.full_clean(exclude=["slug"], validate_constraints=False)
    changed = [name for name in fields if getattr(source, name) != before[name]]
    if not changed:
        return SourceSaved(source=source, unchanged=True)
    if loaded_at is not None and source.updated_at != loaded_at:
        # The conflict shows what is saved now, not the fields just applied to this copy.
        raise StaleEdit(Source.all_objects.get(pk=source.pk))
    if "bibtex_key" in changed:
        _check_bibtex_key(source.bibtex_key)
    duplicate = source_find_duplicate(arxiv_id=source.arxiv_id, doi=source.doi, title=source.title, year=source.year,
                                      authors=source.authors, exclude_pk=source.pk)
    if duplicate is not None:
        raise SourceDuplicate(duplicate.work, duplicate.reason, duplicate.missing)  # type: ignore[arg-type]
    if "short_name" in changed and short_name_key(source.short_name) != short_name_key(before["short_name"]):
        # A work that shared its name before this check keeps it; only a new name must be its own.
        source_check_short_name(short_name=source.short_name, exclude_pk=source.pk)
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
