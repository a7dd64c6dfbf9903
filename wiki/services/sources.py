from __future__ import annotations

from collections.abc import Iterable

from django.db import connection, transaction
from django.db.models.functions import Lower
from django.utils.text import slugify

from wiki.identifiers import normalize_title
from wiki.models import ChangeEvent, Source, SourceKind
from wiki.search.index import search_reindex_sources
from wiki.services.changes import change_event


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
    return set(Source.objects.filter(slug__regex=pattern).values_list("slug", flat=True))


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


def short_name_from_title(title: str) -> str:
    """``SkillForge: Evolving Verifiable Skills…`` → ``SkillForge``; a title without a colon stays whole."""
    head = title.split(":", 1)[0].strip()
    return head if head and len(head) <= 60 and head != title else title[:200]


def sources_by_title(titles: Iterable[str]) -> dict[str, Source]:
    """Existing sources for cited titles, matched by normalised title, else by an unambiguous short name.

    A page may cite a work by its short name (``（来源：SkillForge）``); that must find the source
    rather than create a second one. Two queries at most.
    """
    wanted = {title: normalize_title(title) for title in titles}
    found = {s.normalized_title: s for s in Source.objects.filter(normalized_title__in=set(wanted.values()))}
    matched = {title: found[norm] for title, norm in wanted.items() if norm in found}
    by_name = {title.lower(): title for title in wanted if title not in matched}
    if by_name:
        named: dict[str, list[Source]] = {}
        for source in Source.objects.annotate(name_folded=Lower("short_name")).filter(name_folded__in=set(by_name)):
            named.setdefault(source.name_folded, []).append(source)
        for folded, sources in named.items():
            if len(sources) == 1:
                matched[by_name[folded]] = sources[0]
    return matched


@transaction.atomic
def sources_ensure_for_titles(*, titles: Iterable[str], user: object | None = None) -> tuple[dict[str, Source], list[Source]]:
    """Matches each cited title to a source, creating the missing ones; returns the map and the new sources."""
    titles = list(dict.fromkeys(titles))
    matched = sources_by_title(titles)
    if len(matched) < len(titles):
        sources_lock_creation()
        matched = sources_by_title(titles)
    created: list[Source] = []
    missing = [title for title in titles if title not in matched]
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
    Source.objects.bulk_create(created)
    ChangeEvent.objects.bulk_create(
        change_event(kind=ChangeEvent.Kind.SOURCE, action=ChangeEvent.Action.CREATED, obj=source, label=source.short_name,
                     url=source.get_absolute_url(), summary="created from a citation", user=user)
        for source in created
    )
    search_reindex_sources([source.pk for source in created])
    return matched, created
