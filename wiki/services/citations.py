"""The works a page's citations resolve to, and the ones a save creates; never a silent duplicate.

Each cited title is matched against the existing works: the same title, the same title once normalised, an
unambiguous short name (in any case, width or punctuation), the title of a work merged into another, a work's arXiv
ID or DOI; failing those,
the works close to it (:mod:`wiki.references.citation_matching`: a letter or two apart, a subtitle dropped or
added). A title close to a work is left unresolved, with "did you mean …", until the editor corrects it or confirms
it as a new work (``new_works``); a title close to nothing becomes a new work when the page is saved, under a short
name no other work has. A fixed number of queries however many titles are cited.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from enum import StrEnum

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from wiki.models import Source
from wiki.references.citation_matching import CloseMatcher, WorkRef
from wiki.references.draft import draft_from_identifier
from wiki.references.identifiers import normalize_title, short_name_key
from wiki.roles import User
from wiki.services.sources import sources_by_title, sources_create_for_titles, sources_lock_creation


class CitationOutcome(StrEnum):
    EXACT = "exact"
    NORMALISED = "normalised"
    SHORT_NAME = "short_name"
    IDENTIFIER = "identifier"
    MERGED = "merged"
    CLOSE = "close"
    NEW = "new"
    CREATED = "created"


OUTCOME_LABELS = {
    CitationOutcome.EXACT: _("same title"),
    CitationOutcome.NORMALISED: _("same title once normalised"),
    CitationOutcome.SHORT_NAME: _("short name"),
    CitationOutcome.IDENTIFIER: _("arXiv ID or DOI"),
    CitationOutcome.MERGED: _("title of a work merged into this one"),
    CitationOutcome.CLOSE: _("did you mean"),
    CitationOutcome.NEW: _("new work"),
    CitationOutcome.CREATED: _("created"),
}


def work_ref(source: Source) -> WorkRef:
    return WorkRef(slug=source.slug, short_name=source.short_name, title=source.title)


@dataclass(frozen=True)
class CitationMatch:
    """How one cited title resolves: to ``work`` (None while unresolved), and the works it is close to."""

    title: str
    outcome: str
    work: WorkRef | None = None
    suggestions: tuple[WorkRef, ...] = ()

    @property
    def outcome_label(self) -> str:
        return str(OUTCOME_LABELS[CitationOutcome(self.outcome)])

    @property
    def resolved(self) -> bool:
        return self.work is not None


@dataclass(frozen=True)
class CitationReport:
    """Every cited title of a text, in the order first cited."""

    matches: tuple[CitationMatch, ...] = ()

    def of(self, outcome: str) -> list[CitationMatch]:
        return [m for m in self.matches if m.outcome == outcome]

    @property
    def close(self) -> list[CitationMatch]:
        """Titles left unresolved because they are close to an existing work: "did you mean …"."""
        return self.of(CitationOutcome.CLOSE)

    @property
    def new(self) -> list[CitationMatch]:
        """Titles close to nothing, which saving makes new works."""
        return self.of(CitationOutcome.NEW)

    @property
    def created(self) -> list[CitationMatch]:
        return self.of(CitationOutcome.CREATED)

    @property
    def needs_attention(self) -> bool:
        return bool(self.close or self.new or self.created)


def _outcome(title: str, source: Source) -> CitationOutcome:
    if source.title == title:
        return CitationOutcome.EXACT
    if source.normalized_title == normalize_title(title):
        return CitationOutcome.NORMALISED
    if short_name_key(source.short_name) == short_name_key(title):
        return CitationOutcome.SHORT_NAME
    named = draft_from_identifier(title)
    if named and ((named.arxiv_id and named.arxiv_id == source.arxiv_id) or (named.doi and named.doi == source.doi)):
        return CitationOutcome.IDENTIFIER
    return CitationOutcome.MERGED


def works_close_to(title: str) -> list[WorkRef]:
    """The works whose title or short name is close to ``title`` but not the same (a letter or two apart, another
    spelling, a subtitle dropped or added), most alike first; one query."""
    return _matcher().close(title)


def _matcher() -> CloseMatcher:
    """Every work's title and short name, read once (one query)."""
    rows = Source.objects.order_by("pk").values_list("slug", "short_name", "title")
    return CloseMatcher(WorkRef(slug=slug, short_name=short, title=title) for slug, short, title in rows.iterator(chunk_size=5000))


def citations_resolve(
    *, titles: Iterable[str], new_works: Collection[str] = (), also: Iterable[str] = (),
) -> tuple[dict[str, Source], CitationReport]:
    """The existing source of each cited title, and the report; writes nothing. Four queries at most.

    ``new_works`` are titles the editor confirmed as new works although close to an existing one: they are
    reported as new, with the works they are close to. ``also`` are titles resolved in the same queries but neither
    reported nor created (those the page's claims cited before the edit: a claim citing the same work by another
    name cites no other work).
    """
    titles = list(dict.fromkeys(titles))
    sources = sources_by_title([*titles, *also])
    unresolved = [title for title in titles if title not in sources]
    matcher = _matcher() if unresolved else None
    matches: list[CitationMatch] = []
    for title in titles:
        source = sources.get(title)
        if source is not None:
            matches.append(CitationMatch(title, _outcome(title, source), work_ref(source)))
            continue
        assert matcher is not None
        close = tuple(matcher.close(title))
        outcome = CitationOutcome.CLOSE if close and title not in new_works else CitationOutcome.NEW
        matches.append(CitationMatch(title, outcome, None, close))
    return sources, CitationReport(tuple(matches))


@transaction.atomic
def citations_ensure(
    *, titles: Iterable[str], new_works: Collection[str] = (), user: User | None = None, also: Iterable[str] = (),
) -> tuple[dict[str, Source], CitationReport]:
    """Resolves the cited titles and creates a work for each new one (close to nothing, or confirmed new).

    Titles close to an existing work stay unresolved and out of the returned map; ``also`` are resolved, never
    created (:func:`citations_resolve`). A fixed number of queries.
    """
    titles, also = list(dict.fromkeys(titles)), list(also)
    sources, report = citations_resolve(titles=titles, new_works=new_works, also=also)
    if not report.new:
        return sources, report
    # Someone may be creating the same works: decide again under the lock.
    sources_lock_creation()
    sources, report = citations_resolve(titles=titles, new_works=new_works, also=also)
    created = sources_create_for_titles(titles=[m.title for m in report.new], user=user)
    matches = tuple(
        CitationMatch(m.title, CitationOutcome.CREATED, work_ref(created[m.title]), m.suggestions) if m.title in created else m
        for m in report.matches
    )
    return {**sources, **created}, CitationReport(matches)
