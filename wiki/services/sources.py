from __future__ import annotations

from collections.abc import Iterable

from django.db import connection, transaction
from django.db.models.functions import Lower
from django.utils.text import slugify

from wiki.identifiers import normalize_title
from wiki.models import ChangeEvent, Source, SourceKind
from wiki.search.index import search_reindex_sources


def sources_lock_creation() -> None:
    """Until the transaction ends, no one else creates a source: the duplicate and slug checks that precede an
    insert stay true, and two editors adding the same work at once get “duplicate” instead of a server error."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext('wiki.source.create'))")


def unique_source_slug(name: str, *, taken: set[str] | None = None) -> str:
    """A slug for a new source from its short name: ``MiMo-V2.6`` → ``mimo-v2-6``, made unique."""
    base = slugify(name.replace(".", "-"))[:100] or "source"
    taken = taken if taken is not None else set()
    candidate, n = base, 2
    while candidate in taken or Source.objects.filter(slug=candidate).exists():
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
    taken: set[str] = set()
    for title in titles:
        if title in matched:
            continue
        short = short_name_from_title(title)
        source = Source.objects.create(
            slug=unique_source_slug(short, taken=taken), short_name=short, title=title, kind=SourceKind.PAPER
        )
        ChangeEvent.objects.create(
            kind=ChangeEvent.Kind.SOURCE,
            action=ChangeEvent.Action.CREATED,
            object_id=source.pk,
            label=source.short_name,
            url=source.get_absolute_url(),
            summary="created from a citation",
            user=user if getattr(user, "pk", None) else None,
        )
        matched[title] = source
        # the same normalised title may be cited twice in different forms
        for other in titles:
            if other not in matched and normalize_title(other) == source.normalized_title:
                matched[other] = source
        created.append(source)
    search_reindex_sources([source.pk for source in created])
    return matched, created
