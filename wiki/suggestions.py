"""The classifier's suggestion for a work, from its abstract and the claims about it.

A work has one suggestion wherever it is shown: the source page, the consistency report, the triage
queue, the classification form and the one-key accept all go through ``suggestion_for``, which reads
the abstract and the claims and never the editors' notes. Notes often restate an editor's own
verdict (and the classifier was fitted on them), so a suggestion that read them would echo the
editor instead of checking them, and the queue could accept what no reader of the source page sees.
A work with nothing to read (no abstract, no claim) has no suggestion: the cards say so, the queue
offers only the override form, and ``classification_accept_suggestion`` refuses it.

What lists and reports show of many works at once is kept as ``StoredSuggestion`` rows, the same suggestion
made once for the text and weights it was made from: ``suggestions_refresh`` reads again only the works a write marked
(the database's triggers mark them, migrations 0021 and 0022) and classifies again only those whose text changed.
"""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from django.core.cache import cache
from django.db import connection
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from classifier import Span, Suggestion, classify
from classifier.model import current_weights
from classifier.result import EN_FACT, MARK, ZH_FACT, ZH_MARK, ZH_VERDICT, rationale
from classifier.taxonomy import Fact, Mechanism, Verdict
from config.routers import primary_reads
from wiki.caching import versions
from wiki.models import Citation, Claim, Classification, Component, Source, StoredSuggestion
from wiki.models.suggestions import NO_CONFIDENCE, suggestion_to_json
from wiki.taxonomy import fact_label, mechanism_label


def texts_about(source_ids: Iterable[int] | None) -> dict[int, list[str]]:
    """The texts of current claims (``Claim.objects.current()``: not orphaned, on a page not deleted) citing or about
    each source (every source with ``None``), in page order (three queries).

    A claim that is only *about* a work (say, the other side of a contrast) counts when it names
    the work; otherwise its sentences describe something else.
    """
    ids = None if source_ids is None else list(source_ids)
    chosen = {} if ids is None else {"source_id__in": ids}
    sources = Source.objects.all() if ids is None else Source.objects.filter(pk__in=ids)
    names = {pk: name.casefold() for pk, name in sources.values_list("pk", "short_name")}
    texts: dict[int, dict[int, str]] = defaultdict(dict)
    current = {"claim__is_orphaned": False, "claim__page__deleted_at__isnull": True}
    citing = (
        Citation.objects.filter(**current, **chosen)
        .order_by("claim__page_id", "claim__position")
        .values_list("source_id", "claim_id", "claim__text")
    )
    about = (
        Claim.about.through.objects.filter(**current, **chosen)
        .order_by("claim__page_id", "claim__position")
        .values_list("source_id", "claim_id", "claim__text")
    )
    for source_id, claim_id, text in citing:
        texts[source_id][claim_id] = text
    for source_id, claim_id, text in about:
        if names.get(source_id, "") in text.casefold():
            texts[source_id][claim_id] = text
    return {source_id: list(by_claim.values()) for source_id, by_claim in texts.items()}


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


def suggestion_text(source: Source, claim_texts: Sequence[str]) -> str:
    """What the classifier reads about ``source``: its abstract, then the claims (never the notes)."""
    return _text(source.abstract, claim_texts)


def _text(abstract: str, claim_texts: Sequence[str]) -> str:
    return "\n".join(_parts(abstract, claim_texts))


def _parts(abstract: str, claim_texts: Sequence[str]) -> list[str]:
    return [part for part in [abstract, *claim_texts] if part.strip()]


# How many of the texts a suggestion read (the abstract, then each claim) a card shows, highlighted: a work cited by
# thousands of claims would otherwise print every one of them, megabytes, on its page.
SHOWN_TEXTS = 5


@dataclass(frozen=True)
class Excerpt:
    """Where the first ``SHOWN_TEXTS`` texts a suggestion read end in its text, and how many texts come after."""

    end: int
    not_shown: int


def text_excerpt(source: Source, claim_texts: Sequence[str]) -> Excerpt:
    """The part of :func:`suggestion_text` a card shows: the abstract and the first claims, whole."""
    parts = _parts(source.abstract, claim_texts)
    shown = parts[:SHOWN_TEXTS]
    return Excerpt(end=sum(len(part) for part in shown) + max(len(shown) - 1, 0), not_shown=len(parts) - len(shown))


def suggestion_digest(subject: str, text: str) -> str:
    """The SHA-256 of what the classifier reads: the work (or component) it judges, and the text."""
    return hashlib.sha256(f"{subject}\0{text}".encode()).hexdigest()


def suggestion_for(
    source: Source,
    component: Component | None = None,
    *,
    classification: Classification | None = None,
    claim_texts: Sequence[str] | None = None,
) -> SuggestionView:
    """The suggestion for ``source`` (or one of its components), beside ``classification`` when given.

    ``claim_texts`` saves the three queries of ``texts_about`` when the caller has read them in bulk.
    """
    if classification is not None:
        component = classification.component
    if claim_texts is None:
        claim_texts = texts_about([source.pk]).get(source.pk, [])
    # The unsaved Classification lends its wording, so the subject reads the same everywhere.
    subject = (classification or Classification(source=source, component=component)).subject_name
    text = suggestion_text(source, claim_texts)
    suggestion = classify(text, subject=subject)
    differences: list[str] = []
    if classification is not None and text:
        if classification.mechanism != suggestion.mechanism.value:
            differences.append("mechanism")
        if classification.verdict != suggestion.verdict.value:
            differences.append("verdict")
    excerpt = text_excerpt(source, claim_texts)
    return SuggestionView(subject=subject, text=text, suggestion=suggestion, disagrees_on=tuple(differences),
                          shown_end=excerpt.end, not_shown=excerpt.not_shown)


# How many of the phrases that weighed most towards the suggested mechanism a suggestion lists, and the least weight
# one must have to be listed (a lighter one decided nothing; the highlights still show it).
STRONGEST = 6
LEAST_LISTED = 0.05


def strongest(suggestion: Suggestion, limit: int = STRONGEST) -> list[Span]:
    """The phrases that weighed most towards the suggested mechanism, heaviest first, each once (where it
    weighed most).

    A phrase inside a longer one that also weighed towards it is part of that phrase, its weight added to the
    longer one's: the character pairs a Chinese text is also read by are listed as the cue they sit in ("强化学习",
    not "化学" beside it), and "learning" as "reinforcement learning". Of several phrases holding it, the longest
    takes it, then the one that starts first.

    In O(n log n) for n spans: a work cited by thousands of claims has thousands, and checking each against every
    phrase took seconds.
    """
    decides = f"mechanism:{suggestion.mechanism.value}"
    spans = [span for span in suggestion.evidence if span.decides == decides and span.contribution > 0]
    # The order spans are taken in: the longest first, then the earliest; of spans over the same characters, the one
    # the classifier gave first (the sort is stable).
    taken = sorted(spans, key=lambda span: (span.start - span.end, span.start))
    # A span is a phrase of its own when no span taken before it holds it. By start, the longer first, a span is held
    # by one before it exactly when one before it ends at or after its end.
    by_start = sorted(range(len(taken)), key=lambda i: (taken[i].start, -taken[i].end, i))
    phrase_rank: dict[int, int] = {}  # a phrase's place in ``taken`` → its place among the phrases by start
    furthest = -1
    for i in by_start:
        if taken[i].end > furthest:
            phrase_rank[i] = len(phrase_rank)
        furthest = max(furthest, taken[i].end)
    # Phrases never hold one another: by start, their ends rise too, and those holding a span are a run of them.
    phrases = [taken[i] for i in sorted(phrase_rank, key=phrase_rank.__getitem__)]
    starts, ends = [p.start for p in phrases], [p.end for p in phrases]
    first_taken = _FirstInRange([(p.start - p.end, p.start) for p in phrases])
    weights = [p.contribution for p in phrases]
    for i, span in enumerate(taken):
        if i not in phrase_rank:
            holder = first_taken.index(bisect_left(ends, span.end), bisect_right(starts, span.start))
            weights[holder] += span.contribution
    # As taken, so that of phrases weighing the same the longer, then the earlier, comes first.
    summed = [phrases[rank]._replace(contribution=weights[rank]) for rank in phrase_rank.values()]
    listed: dict[str, Span] = {}
    for phrase in sorted(summed, key=lambda span: -span.contribution):
        if phrase.contribution >= LEAST_LISTED:
            listed.setdefault(phrase.cue.casefold(), phrase)
    return list(listed.values())[:limit]


class _FirstInRange:
    """The place of the least key in any run of ``keys`` (a sparse table: built in O(n log n), asked in O(1))."""

    def __init__(self, keys: Sequence[tuple[int, int]]) -> None:
        self.keys = keys
        self.levels: list[list[int]] = [list(range(len(keys)))]
        width = 1
        while 2 * width <= len(keys):
            below = self.levels[-1]
            self.levels.append(
                [min(below[i], below[i + width], key=keys.__getitem__) for i in range(len(keys) - 2 * width + 1)]
            )
            width *= 2

    def index(self, start: int, stop: int) -> int:
        """The place of the least key in ``keys[start:stop]``, which is not empty."""
        level = (stop - start).bit_length() - 1
        row = self.levels[level]
        return min(row[start], row[stop - (1 << level)], key=self.keys.__getitem__)


def signed_weight(value: float) -> str:
    """A contribution as the cards show it: ``+0.37``, ``−0.04`` (a minus sign, not a hyphen)."""
    return f"{value:+.2f}".replace("-", "\u2212")


def evidence_title(span: Span, suggested: str) -> str:
    """What an evidence span points to and its weight, in the reader's language (a highlight's tooltip).

    A mechanism span's weight counts towards the ``suggested`` mechanism, whichever mechanism its cue names."""
    kind, _colon, key = span.decides.partition(":")
    if kind == "negation":
        return gettext("Negation or contrast")
    if kind == "narrow":
        return gettext("Narrow update target or action space")
    weight = signed_weight(span.contribution)
    if kind == "mechanism" and key != suggested:
        return gettext("A cue of %(label)s (weight %(weight)s towards %(suggested)s)") % {
            "label": mechanism_label(key), "weight": weight, "suggested": mechanism_label(suggested),
        }
    what = gettext("Mechanism: %(label)s") % {"label": mechanism_label(key)} if kind == "mechanism" else fact_label(key)
    if not round(span.contribution, 2):
        return what
    return gettext("%(what)s (weight %(weight)s)") % {"what": what, "weight": weight}


# A highlight's lines: the mechanism first, then the facts in the rubric's order, then negation and narrowness.
_TITLE_ORDER = {f"fact:{fact.value}": rank for rank, fact in enumerate(Fact, start=1)}


def _title_order(span: Span) -> int:
    return 0 if span.decides.startswith("mechanism:") else _TITLE_ORDER.get(span.decides, len(Fact) + 1)


def _precedence(place: tuple[tuple[int, int], list[Span]]) -> tuple[bool, int, float, int]:
    """Which of two overlapping phrases is highlighted: a negation or narrowing mark, then the longer phrase (a
    cue over the character pairs inside it), then the one that weighed more ("验证" over the "的验" beside it)."""
    (start, end), here = place
    marks = any(span.decides.partition(":")[0] in ("negation", "narrow") for span in here)
    return (not marks, start - end, -sum(abs(span.contribution) for span in here), start)


@dataclass(frozen=True)
class Marked:
    """A highlighted phrase of a suggestion's text, what it weighed on, a line each, and whether it was negated."""

    start: int
    end: int
    phrase: str
    lines: tuple[str, ...]
    negated: bool


def marked(text: str, suggestion: Suggestion) -> list[Marked]:
    """The suggestion's evidence spans in ``text``, in the order they stand, each titled with what it points to and
    its weight, a line each where one phrase weighed on several things. Of phrases that overlap, one is kept
    (:func:`_precedence`)."""
    suggested = suggestion.mechanism.value
    places: dict[tuple[int, int], list[Span]] = defaultdict(list)
    for span in suggestion.evidence:
        if 0 <= span.start < span.end <= len(text):
            places[span.start, span.end].append(span)
    # The phrases kept, in the order they stand: they never overlap, so a new one is checked against its neighbours
    # alone (a work cited by thousands of claims has thousands of phrases, and checking each against every one kept
    # took seconds).
    starts: list[int] = []
    chosen: list[tuple[tuple[int, int], list[Span]]] = []
    for place in sorted(places.items(), key=_precedence):
        (start, end), _here = place
        i = bisect_right(starts, start)
        if (i == 0 or chosen[i - 1][0][1] <= start) and (i == len(chosen) or end <= chosen[i][0][0]):
            starts.insert(i, start)
            chosen.insert(i, place)
    return [
        Marked(start, end, text[start:end], tuple(evidence_title(span, suggested) for span in sorted(here, key=_title_order)),
               any(span.negated for span in here))
        for (start, end), here in chosen
    ]


def highlight(text: str, suggestion: Suggestion) -> SafeString:
    """``text`` escaped, with each of the suggestion's evidence phrases (:func:`marked`) in ``<mark>``, titled with
    what it points to and its weight."""
    parts: list[str] = []
    cursor = 0
    for mark in marked(text, suggestion):
        parts.append(escape(text[cursor:mark.start]))
        # A line each, the line break written as a character reference, which ``linebreaksbr`` leaves alone.
        title = "&#10;".join(escape(line) for line in mark.lines)
        parts.append(f'<mark class="{"negated" if mark.negated else ""}" title="{title}">{escape(mark.phrase)}</mark>')
        cursor = mark.end
    parts.append(escape(text[cursor:]))
    return mark_safe("".join(parts))  # noqa: S308 - every part is escaped


def suggestions_for_source(source: Source, classifications: Sequence[Classification]) -> list[SuggestionView]:
    """One suggestion beside each classification of ``source`` (or one alone when it has none)."""
    texts = texts_about([source.pk]).get(source.pk, [])
    if not classifications:
        return [suggestion_for(source, claim_texts=texts)]
    return [suggestion_for(source, classification=c, claim_texts=texts) for c in classifications]


def _classifier_line(chinese: bool) -> re.Pattern[str]:
    """The shape of the classifier's one-line reason in one language (see ``classifier.result.rationale``)."""
    names, marks = (ZH_FACT, ZH_MARK) if chinese else (EN_FACT, MARK)
    mark = "(" + "|".join(re.escape(m) for m in marks.values()) + ")"
    facts = ("，" if chinese else ", ").join(re.escape(names[f]) + ("" if chinese else " ") + mark for f in Fact)
    head = "机制：(.+?)；" if chinese else "(.+?); "
    return re.compile(f"^{head}{facts}(?:；.+|; .+)? → (.+)$", re.S)


_CLASSIFIER_LINES = {chinese: _classifier_line(chinese) for chinese in (False, True)}


def _read_classifier_line(text: str, chinese: bool) -> str | None:
    """``text`` in the reader's language if it is, word for word, the classifier's reason in the language given."""
    found = _CLASSIFIER_LINES[chinese].match(text)
    if found is None:
        return None
    head, *marks, verdict_text = found.groups()
    by_mark = {mark: value for value, mark in (ZH_MARK if chinese else MARK).items()}
    values = {fact: by_mark[mark] for fact, mark in zip(Fact, marks, strict=True)}
    verdicts = {(ZH_VERDICT[v] if chinese else v.label): v for v in Verdict}
    if verdict_text not in verdicts:
        return None
    opening, closing = ("（", "）") if chinese else (" (", ")")
    for mechanism in Mechanism:
        label = mechanism.label_zh if chinese else mechanism.label
        if head == label:
            algorithm = None
        elif head.startswith(label + opening) and head.endswith(closing):
            algorithm = head[len(label + opening):-len(closing)]
        else:
            continue
        args = (mechanism, algorithm, values, verdicts[verdict_text])
        if rationale(*args, chinese=chinese) == text:
            return rationale(*args, chinese=(get_language() or "").startswith("zh"))
    return None


def rationale_for_reader(text: str) -> str:
    """A stored rationale as the reader should see it: the classifier's own one-line reason (recognised word for
    word, in either language) in the reader's language; anything an editor wrote, as typed."""
    line = text.strip()
    for chinese in (False, True):
        if (shown := _read_classifier_line(line, chinese)) is not None:
            return shown
    return text


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
        text = _text(names[pk][1], texts.get(pk, []))
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
        row = stored.get(source.pk)
        if row is not None and (row.digest, row.weights_version) == (suggestion_digest(source.short_name, text), version):
            suggestion = row.as_suggestion()
        else:
            suggestion = classify(text, subject=source.short_name)
        excerpt = text_excerpt(source, texts.get(source.pk, []))
        views[source.pk] = SuggestionView(subject=source.short_name, text=text, suggestion=suggestion, disagrees_on=(),
                                          shown_end=excerpt.end, not_shown=excerpt.not_shown)
    return views
