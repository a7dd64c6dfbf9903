"""The classifier's suggestion for a work, from its abstract and the claims about it.

A work has one suggestion wherever it is shown: the source page, the consistency report, the triage
queue, the classification form and the one-key accept all go through ``suggestion_for``, which reads
the abstract and the claims and never the editors' notes. Notes often restate an editor's own
verdict (and the classifier was fitted on them), so a suggestion that read them would echo the
editor instead of checking them, and the queue could accept what no reader of the source page sees.
A work with nothing to read (no abstract, no claim) has no suggestion: the cards say so, the queue
offers only the override form, and ``classification_accept_suggestion`` refuses it.

Each suggestion is kept as a ``StoredSuggestion`` row, made once for the subject, text and weights it was made from:
``suggestions_refresh`` reads again only the works a write marked (the database's triggers mark them, migrations 0021
and 0022) and classifies again only those whose text changed. Every place that shows a suggestion reads the text and
takes the stored row when it was made from that same text and the installed weights; only when none was does it
classify, and it writes nothing (a much-cited work's page would otherwise classify thousands of claims' text on every
request).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from django.core.cache import cache
from django.db import connection
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from classifier import Span, Suggestion, classify
from classifier.model import current_weights
from config.routers import primary_reads
from wiki.caching import versions
from wiki.models import Classification, Component, Source, StoredSuggestion
from wiki.models.suggestions import NO_CONFIDENCE, suggestion_to_json
from wiki.rationales import rationale_for_reader
from wiki.suggestion_evidence import Marked, highlight, marked, signed_weight, strongest
from wiki.suggestion_texts import joined_text, suggestion_digest, suggestion_text, text_excerpt, texts_about

# What the rest of the wiki imports from here; the texts read, the evidence shown and the rationales' language each
# have their own module.
__all__ = [
    "SuggestionView", "highlight", "rationale_for_reader", "signed_weight", "stored_suggestions_for", "strongest",
    "suggestion_digest", "suggestion_for", "suggestion_text", "suggestions_for_source", "suggestions_refresh",
    "texts_about",
]


@dataclass(frozen=True)
class SuggestionView:
    """A suggestion beside the editor's classification, and where they differ."""

    subject: str
    text: str
    suggestion: Suggestion
    disagrees_on: tuple[str, ...]
    # The part of ``text`` a card shows: the first of the texts read (:func:`text_excerpt`), and how many are left out.
    shown_end: int | None = None
    not_shown: int = 0

    @property
    def has_suggestion(self) -> bool:
        """Whether there was anything to read; without, ``suggestion`` is the classifier's guess from nothing."""
        return bool(self.text)

    @property
    def shown_text(self) -> str:
        return self.text if self.shown_end is None else self.text[: self.shown_end]

    @property
    def disagrees(self) -> bool:
        return bool(self.disagrees_on)

    # A template reads each of these more than once; a long text has hundreds of spans to title.
    @cached_property
    def highlighted(self) -> SafeString:
        """:attr:`shown_text` with its evidence highlighted."""
        return highlight(self.shown_text, self.suggestion)

    @cached_property
    def strongest(self) -> list[Span]:
        return strongest(self.suggestion)

    @cached_property
    def marked(self) -> list[Marked]:
        """What :attr:`highlighted` titles, for readers who cannot hover: a keyboard, a phone, a screen reader."""
        return marked(self.shown_text, self.suggestion)

    @property
    def disagrees_on_text(self) -> str:
        """"mechanism and verdict" in the reader's language."""
        names = {"mechanism": gettext("mechanism"), "verdict": gettext("verdict")}
        return gettext(" and ").join(names.get(part, part) for part in self.disagrees_on)


def _stored_or_classified(subject: str, text: str, row: StoredSuggestion | None, version: int) -> Suggestion:
    """What ``classify(text, subject=subject)`` gives: ``row``'s suggestion when it was made from this subject and
    text with weights ``version``, else classified here (and not stored: the refresh keeps the rows)."""
    if row is not None and row.made_from(suggestion_digest(subject, text), version):
        return row.as_suggestion()
    return classify(text, subject=subject)


def suggestion_for(
    source: Source,
    component: Component | None = None,
    *,
    classification: Classification | None = None,
    claim_texts: Sequence[str] | None = None,
    stored: Mapping[int | None, StoredSuggestion] | None = None,
) -> SuggestionView:
    """The suggestion for ``source`` (or one of its components), beside ``classification`` when given.

    ``claim_texts`` saves the three queries of ``texts_about`` when the caller has read them in bulk, and ``stored``
    (the work's stored rows by component id, ``None`` for the work's own) the query that reads its stored row.
    """
    if classification is not None:
        component = classification.component
    if claim_texts is None:
        claim_texts = texts_about([source.pk]).get(source.pk, [])
    if stored is None:
        stored = {row.component_id: row for row in StoredSuggestion.objects.of_work(source.pk).filter(component=component)}
    # The unsaved Classification lends its wording, so the subject reads the same everywhere.
    subject = (classification or Classification(source=source, component=component)).subject_name
    text = suggestion_text(source, claim_texts)
    row = stored.get(component.pk if component is not None else None)
    suggestion = _stored_or_classified(subject, text, row, current_weights().version)
    differences: list[str] = []
    if classification is not None and text:
        if classification.mechanism != suggestion.mechanism.value:
            differences.append("mechanism")
        if classification.verdict != suggestion.verdict.value:
            differences.append("verdict")
    excerpt = text_excerpt(source, claim_texts)
    return SuggestionView(subject=subject, text=text, suggestion=suggestion, disagrees_on=tuple(differences),
                          shown_end=excerpt.end, not_shown=excerpt.not_shown)


def suggestions_for_source(source: Source, classifications: Sequence[Classification]) -> list[SuggestionView]:
    """One suggestion beside each classification of ``source`` (or one alone when it has none); four queries."""
    texts = texts_about([source.pk]).get(source.pk, [])
    stored = {row.component_id: row for row in StoredSuggestion.objects.of_work(source.pk)}
    if not classifications:
        return [suggestion_for(source, claim_texts=texts, stored=stored)]
    return [suggestion_for(source, classification=c, claim_texts=texts, stored=stored) for c in classifications]


def stored_suggestions_for(sources: Sequence[Source]) -> dict[int, SuggestionView]:
    """Each work's own suggestion, the one ``suggestion_for`` gives, read from its stored row when that was made from
    the same text and weights, else made here (a bounded number of works: nothing is written); four queries."""
    ids = [source.pk for source in sources]
    texts = texts_about(ids)
    stored = {row.source_id: row for row in StoredSuggestion.objects.of_works(ids)}
    version = current_weights().version
    views: dict[int, SuggestionView] = {}
    for source in sources:
        text = suggestion_text(source, texts.get(source.pk, []))
        suggestion = _stored_or_classified(source.short_name, text, stored.get(source.pk), version)
        excerpt = text_excerpt(source, texts.get(source.pk, []))
        views[source.pk] = SuggestionView(subject=source.short_name, text=text, suggestion=suggestion, disagrees_on=(),
                                          shown_end=excerpt.end, not_shown=excerpt.not_shown)
    return views


# How many works one request classifies at most while stored suggestions are out of date (about a second's work);
# the rest wait for the next request, the commands that load a wiki refresh them all.
REFRESH_BATCH = 100
# How many works' texts one request reads at most (a few hundred milliseconds); with no limit, when more are to be read,
# every work's text is, in as many queries.
REFRESH_READ = 1000
# One refresh at a time: another request meanwhile reads the rows as they are.
REFRESH_LOCK = "wiki:suggestions:refreshing"
REFRESH_LOCK_SECONDS = 300
# A bound on staleness for writes no content version sees (hand-written SQL) and for stored rows deleted by hand, which
# no trigger marks.
FRESH_SECONDS = 600
# The works a write changed the text of since their suggestions were stored, one row per mark; its triggers are in
# migrations 0021 and 0022.
STALE_TABLE = "stale_suggestion"


def _stale_works(version: int, *, every_row: bool, limit: int | None) -> list[tuple[int, list[int]]]:
    """The works whose stored suggestions may be out of date, in order, each with the ids of its marks (one query):
    the works marked since they were last refreshed and, with ``every_row``, each live work or classified component
    with no row stored from weights ``version``."""
    source, classification = Source._meta.db_table, Classification._meta.db_table
    stored = StoredSuggestion._meta.db_table
    parts = [f"SELECT source_id, id AS mark FROM {STALE_TABLE}"]
    if every_row:
        parts += [
            f"SELECT s.id, NULL FROM {source} s WHERE s.deleted_at IS NULL AND NOT EXISTS (SELECT FROM {stored} r "
            f"WHERE r.source_id = s.id AND r.component_id IS NULL AND r.weights_version = %(version)s)",
            f"SELECT c.source_id, NULL FROM {classification} c JOIN {source} s ON s.id = c.source_id "
            f"WHERE c.component_id IS NOT NULL AND s.deleted_at IS NULL AND NOT EXISTS (SELECT FROM {stored} r "
            f"WHERE r.source_id = c.source_id AND r.component_id = c.component_id AND r.weights_version = %(version)s)",
        ]
    sql = (f"SELECT source_id, array_remove(array_agg(mark), NULL) FROM ({' UNION ALL '.join(parts)}) AS stale "
           "GROUP BY source_id ORDER BY source_id")
    if limit is not None:
        sql += " LIMIT %(limit)s"
    with connection.cursor() as cursor:
        cursor.execute(sql, {"version": version, "limit": limit})
        return [(source_id, list(marks)) for source_id, marks in cursor.fetchall()]


def suggestions_refresh(*, limit: int | None = REFRESH_BATCH) -> bool:
    """Brings the stored suggestions up to date with the wiki and the installed weights, classifying at most ``limit``
    works (all with ``None``); whether they are now all up to date.

    Nothing is read while nothing was written to the wiki since they were last found up to date (the content version
    tells, with no query). Otherwise one query finds the works a write marked since (the database's triggers mark
    whatever changes what a suggestion reads, whoever writes it) and, once per weights and ``FRESH_SECONDS``, those
    with no row from the installed weights; only those works' texts are read, at most ``REFRESH_READ`` of them a
    request, in a fixed number of queries, and only a work whose text or weights changed is classified again. One
    refresh runs at a time; a request that finds one running answers from the rows as they are. Everything it reads is
    read from the primary: a replica behind it would have the marks forgotten unread.
    """
    version = current_weights().version
    # Nothing at all was written since they were last found up to date: not even the marks need be looked at.
    seen_key = f"wiki:suggestions:fresh-at:{versions.current().number}:{version}"
    if cache.get(seen_key):
        return True
    stored_key = f"wiki:suggestions:all-stored:{version}"
    every_row = not cache.get(stored_key)
    with primary_reads():
        stale = _stale_works(version, every_row=every_row, limit=None if limit is None else REFRESH_READ + 1)
        if not stale:
            if every_row:
                cache.set(stored_key, True, FRESH_SECONDS)
            cache.set(seen_key, True, FRESH_SECONDS)
            return True
        if not cache.add(REFRESH_LOCK, True, REFRESH_LOCK_SECONDS):
            return False
        try:
            complete = _refresh(stale, version, limit)
        finally:
            cache.delete(REFRESH_LOCK)
    if complete:
        cache.set(seen_key, True, FRESH_SECONDS)
        if every_row:
            cache.set(stored_key, True, FRESH_SECONDS)
    return complete


def _refresh(stale: list[tuple[int, list[int]]], version: int, limit: int | None) -> bool:
    """Stores the suggestion of each live work in ``stale`` and of each of its classified components whose text
    changed or was not classified with weights ``version``, and forgets the marks read of the works it went through
    (six queries, one more to write when any changed, one to forget); whether it went through them all. More works
    than ``REFRESH_READ`` with no ``limit``: every work's text is read."""
    more = limit is not None and len(stale) > REFRESH_READ
    stale = stale[:REFRESH_READ] if limit is not None else stale
    ids = [pk for pk, _marks in stale] if len(stale) <= REFRESH_READ else None
    works = Source.objects.order_by("pk")
    components = Classification.objects.filter(component__isnull=False).order_by("pk")
    rows = StoredSuggestion.objects.digests()
    if ids is not None:
        works, components, rows = works.filter(pk__in=ids), components.filter(source_id__in=ids), rows.filter(source_id__in=ids)
    names = {pk: (name, abstract) for pk, name, abstract in works.values_list("pk", "short_name", "abstract")}
    subjects: dict[int, list[tuple[int | None, str]]] = {pk: [(None, name)] for pk, (name, _abstract) in names.items()}
    for pk, component_id, component_name in components.values_list("source_id", "component_id", "component__name"):
        if pk in subjects:
            subjects[pk].append((component_id, f"{names[pk][0]} {component_name}"))
    texts = texts_about(ids)
    stored = {(pk, part): (digest, stored_version) for pk, part, digest, stored_version in rows}
    changed: list[StoredSuggestion] = []
    stopped_at: int | None = None
    for pk, wanted in subjects.items():
        text = joined_text(names[pk][1], texts.get(pk, []))
        due = []
        for part, subject in wanted:
            digest = suggestion_digest(subject, text)
            if stored.get((pk, part)) != (digest, version):
                due.append((part, subject, digest))
        if limit is not None and changed and len(changed) + len(due) > limit:
            stopped_at = pk
            break
        for part, subject, digest in due:
            suggestion = classify(text, subject=subject)
            changed.append(StoredSuggestion(
                source_id=pk, component_id=part, digest=digest, weights_version=version, readable=bool(text),
                mechanism=suggestion.mechanism.value, verdict=suggestion.verdict.value,
                confidence=suggestion.confidence if text else NO_CONFIDENCE, suggestion=suggestion_to_json(suggestion),
            ))
    _store(changed)
    _forget([mark for pk, marks in stale if stopped_at is None or pk < stopped_at for mark in marks])
    return stopped_at is None and not more


def _forget(marks: list[int]) -> None:
    """Deletes these marks, and only these: one a write made since they were read stays for the next refresh."""
    if marks:
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {STALE_TABLE} WHERE id = ANY(%s::bigint[])", [marks])


def _store(rows: list[StoredSuggestion]) -> None:
    if rows:
        StoredSuggestion.objects.bulk_create(
            rows, batch_size=500, update_conflicts=True, unique_fields=["source", "component"],
            update_fields=["digest", "weights_version", "readable", "mechanism", "verdict", "confidence", "suggestion",
                           "refreshed_at"],
        )
