"""Running a search: one SQL query returns the best hits of every kind with their per-kind totals.

``search_sql`` builds that query from a tsquery (``wiki.search.tokenize.tsquery_text``) and the
filters; ``search`` runs it and turns the rows into highlighted hits grouped by kind.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from wiki.models import SearchDocument
from wiki.search.index import kind_marker
from wiki.search.tokenize import query_fragments, tsquery_text

MAX_QUERY_LENGTH = 200
KIND_ORDER = [SearchDocument.Kind.PAGE, SearchDocument.Kind.CLAIM, SearchDocument.Kind.SOURCE, SearchDocument.Kind.QUESTION]
SNIPPET_LENGTH = 220


@dataclass(frozen=True)
class Hit:
    kind: str
    object_id: int
    title: str
    url: str
    rank: float
    title_html: SafeString
    snippet_html: SafeString
    mechanism: str = ""
    verdict: str = ""


@dataclass(frozen=True)
class Group:
    kind: str
    label: str
    total: int  # matches of this kind, counted up to the plan's cap
    hits: list[Hit]
    total_capped: bool = False  # there are more than ``total`` matches


@dataclass(frozen=True)
class SearchResults:
    query: str
    groups: list[Group] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(group.total for group in self.groups)

    @property
    def total_capped(self) -> bool:
        return any(group.total_capped for group in self.groups)


def _highlighter(query: str) -> re.Pattern[str] | None:
    """Matches what the query asked for in the original text: each word or CJK run, and the bigrams of runs."""
    pieces: set[str] = set()
    for fragment in query_fragments(query):
        pieces.add(fragment)
        if not fragment.isascii() and len(fragment) > 2:
            pieces.update(fragment[i : i + 2] for i in range(len(fragment) - 1))
    if not pieces:
        return None
    alternatives = sorted(pieces, key=len, reverse=True)
    return re.compile("|".join(re.escape(p) for p in alternatives), re.IGNORECASE)


def highlight(text: str, pattern: re.Pattern[str] | None, *, length: int | None = None) -> SafeString:
    """``text`` (cut to ``length`` around the first match) HTML-escaped, with every match wrapped in ``<mark>``."""
    if length is not None and len(text) > length:
        first = pattern.search(text) if pattern else None
        start = max(0, (first.start() if first else 0) - length // 3)
        end = min(len(text), start + length)
        prefix, suffix = ("…" if start > 0 else ""), ("…" if end < len(text) else "")
        text = f"{prefix}{text[start:end]}{suffix}"
    if pattern is None:
        return escape(text)
    out: list[str] = []
    position = 0
    for match in pattern.finditer(text):
        out.append(escape(text[position : match.start()]))
        out.append(f"<mark>{escape(match.group())}</mark>")
        position = match.end()
    out.append(escape(text[position:]))
    return mark_safe("".join(out))  # every piece of text was escaped above


# How much one search reads, per kind. The GIN index is asked for the query's words among the
# TIERS[0] most important documents of the kind (marker @claim1); if more than the cap match, those are
# the candidates. Otherwise among the TIERS[1] most important (@claim2), and only then among all
# documents of the kind (@claim, at most FULL_SCAN_CAP). A common word thus reads about a thousand rows and a rare one a
# handful; neither reads the bodies or vectors of the documents it does not keep.
COUNT_CAP = 200  # totals are exact up to this, then "200+"
RANKED = 100  # the most important matches ordered by relevance; later ones follow by importance
FULL_SCAN_CAP = 5000  # matches read when a word is rare even among the tier 2 documents


@dataclass(frozen=True)
class SearchPlan:
    """The bounds of one search; deeper pages raise the cap so that they stay reachable."""

    cap: int
    ranked: int
    full_scan: int

    @classmethod
    def for_window(cls, *, offset: int, limit: int) -> SearchPlan:
        cap = max(COUNT_CAP, offset + limit)
        return cls(cap=cap, ranked=RANKED, full_scan=max(FULL_SCAN_CAP, cap + 1))


# One statement returns the page of hits of every kind with their totals. Its steps (CTEs):
#   top1       -- one GIN scan: the words & (@page1 | @claim1 | …), at most TIERS[0] rows a kind;
#   top2       -- per kind, run only if top1 found `cap` or fewer of it: the words & @claim2;
#   everything -- per kind, only if top2 found `cap` or fewer too: the words & @claim, at most
#                 `full_scan`; its tsquery is a subquery, so that the planner, blind to how rare the
#                 words are at this point, takes the GIN index rather than a table scan;
#   matches    -- for each kind the widest step that ran, numbered by importance, with its count;
#   ranked     -- the first `ranked` by importance re-ordered by ts_rank (title words weigh most), the
#                 rest by importance, so that pages of results never overlap;
# and only the page kept is joined back for titles and bodies. The tsqueries are constants, so the
# planner sees that the markers make every step small (a GIN bitmap scan, never a table scan), its
# row estimates follow the LIMITs, and every sort fits in the default work_mem.
_SEARCH_SQL = """
WITH kinds AS (
    SELECT kind, ordinal FROM unnest(%(kinds)s::text[]) WITH ORDINALITY AS k(kind, ordinal)
), top1 AS MATERIALIZED (
    SELECT d.kind, d.id, d.importance, 1 AS step FROM wiki_searchdocument d
    WHERE d.vector @@ ({query} && %(top1)s::tsquery) {filters}
), top2 AS MATERIALIZED (
    {top2}
), everything AS MATERIALIZED (
    {everything}
), matches AS (
    SELECT kind, id, importance,
           row_number() OVER (PARTITION BY kind ORDER BY importance DESC, id) AS by_importance,
           count(*) OVER (PARTITION BY kind) AS found
    FROM (
        SELECT u.*, max(step) OVER (PARTITION BY kind) AS widest
        FROM (SELECT * FROM top1 UNION ALL SELECT * FROM top2 UNION ALL SELECT * FROM everything) u
    ) steps
    WHERE step = widest
), ranked AS (
    SELECT m.kind, m.id, m.found, ts_rank(d.vector, {query}) AS rank, m.by_importance, m.importance
    FROM matches m JOIN wiki_searchdocument d ON d.id = m.id
    WHERE m.by_importance <= greatest(%(ranked)s, %(last)s)
), numbered AS (
    SELECT kind, id, found, rank,
           row_number() OVER (
               PARTITION BY kind
               ORDER BY by_importance > %(ranked)s, CASE WHEN by_importance <= %(ranked)s THEN rank END DESC,
                        importance DESC, id
           ) AS row
    FROM ranked
)
SELECT d.kind, d.object_id, d.title, d.body, d.url, d.mechanism, d.verdict, n.rank,
       least(n.found, %(cap)s) AS kind_total, n.found > %(cap)s AS more
FROM numbered n JOIN wiki_searchdocument d ON d.id = n.id JOIN kinds k ON k.kind = n.kind
WHERE n.row > %(first)s AND n.row <= %(last)s
ORDER BY k.ordinal, n.row
"""
# The per-kind steps: each runs only when the narrower steps found `cap` or fewer documents of its kind
# (conditions without columns: PostgreSQL checks them once and skips the scan).
_TOP2_STEP = """SELECT d.kind, d.id, d.importance, 2 AS step FROM wiki_searchdocument d
    WHERE d.vector @@ ({query} && %(top2_{i})s::tsquery) {filters}
      AND (SELECT count(*) FROM top1 WHERE kind = %(kind_{i})s) <= %(cap)s"""
_EVERYTHING_STEP = """SELECT * FROM (
        SELECT d.kind, d.id, d.importance, 3 AS step FROM wiki_searchdocument d
        WHERE d.vector @@ (SELECT {query} && %(all_{i})s::tsquery) {filters}
          AND (SELECT count(*) FROM top2 WHERE kind = %(kind_{i})s) <= %(cap)s
          AND (SELECT count(*) FROM top1 WHERE kind = %(kind_{i})s) <= %(cap)s
        LIMIT %(full_scan)s
    ) all_{i}"""
_QUERY = "to_tsquery('simple', %(tsquery)s)"


def _quoted(lexeme: str) -> str:
    """A marker as a tsquery operand (markers hold no quotes)."""
    return f"'{lexeme}'"


# Only sources carry a mechanism and a verdict: with either filter, the other kinds are not read at all.
_CLASSIFIED_KINDS = {SearchDocument.Kind.SOURCE}


def search_sql(
    tsquery: str, *, kinds: list[str], mechanism: str = "", verdict: str = "", plan: SearchPlan, offset: int, limit: int
) -> tuple[str, dict[str, Any]]:
    """The search statement and its parameters: hits ``offset`` to ``offset + limit`` of each of ``kinds``
    (in that order) for ``tsquery``, a ``to_tsquery('simple', …)`` text, with mechanism/verdict filters.

    ``tsquery`` may be any tsquery over the index's words (an OR of synonyms, say): the steps only AND
    it with their markers.
    """
    filters = "".join(
        f" AND d.{column} = %({column})s" for column, value in (("mechanism", mechanism), ("verdict", verdict)) if value
    )
    params: dict[str, object] = {
        "tsquery": tsquery, "kinds": kinds, "mechanism": mechanism, "verdict": verdict, "cap": plan.cap,
        "ranked": plan.ranked, "full_scan": plan.full_scan, "first": offset, "last": offset + limit,
        "top1": " | ".join(_quoted(kind_marker(k, 1)) for k in kinds),
    }
    top2, everything = [], []
    for i, kind in enumerate(kinds):
        params |= {f"kind_{i}": kind, f"top2_{i}": _quoted(kind_marker(kind, 2)), f"all_{i}": _quoted(kind_marker(kind))}
        top2.append(_TOP2_STEP.format(query=_QUERY, filters=filters, i=i))
        everything.append(_EVERYTHING_STEP.format(query=_QUERY, filters=filters, i=i))
    union = "\n    UNION ALL\n    "
    sql = _SEARCH_SQL.format(query=_QUERY, filters=filters, top2=union.join(top2), everything=union.join(everything))
    return sql, params


def search(
    query: str,
    *,
    kinds: list[str] | None = None,
    mechanism: str = "",
    verdict: str = "",
    limit: int = 10,
    offset: int = 0,
) -> SearchResults:
    """Hits for ``query`` grouped by kind, best first; ``limit``/``offset`` apply within each kind.

    Mechanism and verdict filters keep the documents that carry them (sources). Totals are counted up
    to ``COUNT_CAP`` (or ``offset + limit`` if larger); a capped group says so with ``total_capped``.
    """
    query = query.strip()[:MAX_QUERY_LENGTH]
    tsquery = tsquery_text(query)
    if not tsquery:
        return SearchResults(query=query)
    wanted = [k.value for k in KIND_ORDER if (not kinds or k in kinds) and (not (mechanism or verdict) or k in _CLASSIFIED_KINDS)]
    if not wanted:
        return SearchResults(query=query)
    sql, params = search_sql(tsquery, kinds=wanted, mechanism=mechanism, verdict=verdict,
                             plan=SearchPlan.for_window(offset=offset, limit=limit), offset=offset, limit=limit)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        columns = [c.name for c in cursor.description or ()]
        rows = [dict(zip(columns, values)) for values in cursor.fetchall()]
    pattern = _highlighter(query)
    hits: dict[str, list[Hit]] = {}
    totals: dict[str, tuple[int, bool]] = {}
    for row in rows:
        totals[row["kind"]] = (row["kind_total"], row["more"])
        hits.setdefault(row["kind"], []).append(
            Hit(
                kind=row["kind"],
                object_id=row["object_id"],
                title=row["title"],
                url=row["url"],
                rank=float(row["rank"]),
                title_html=highlight(row["title"], pattern),
                snippet_html=highlight(row["body"], pattern, length=SNIPPET_LENGTH),
                mechanism=row["mechanism"],
                verdict=row["verdict"],
            )
        )
    labels = dict(SearchDocument.Kind.choices)
    groups = [
        Group(kind=k.value, label=str(labels[k]), total=totals[k][0], total_capped=totals[k][1], hits=hits[k])
        for k in KIND_ORDER if k in hits
    ]
    return SearchResults(query=query, groups=groups)
