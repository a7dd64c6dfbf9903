"""Running a search: one SQL query returns the best hits of every kind with their per-kind totals.

``search`` reads the query against the glossary (``wiki.search.terms``): a term it names is searched by all its
names, and a mechanism or verdict it names also matches the works classified so, which rank first with the page
defining the term. ``search_sql`` builds the statement from those words (:class:`Words`) and the filters;
``search`` runs it and turns the rows into hits grouped by kind, each with the sentence that matched, every
matched name highlighted (``wiki.search.highlight``). A word with a British and an American spelling (``optimisation``) matches either, as a
term's names do (``wiki.search.spelling``), and a query that is an arXiv ID or a DOI in any of its usual forms is
searched as works hold it (``wiki.search.identifiers``). Quoted phrases, excluded words and phrases and OR
(``wiki.search.syntax``) are read into the same words (``wiki.search.words``), and the results say what was
understood. A search that finds nothing suggests close glossary terms, and works and pages named close to it
(``wiki.search.close``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.utils.safestring import SafeString

from wiki.models import SearchDocument
from wiki.search.close import CloseName, close_names, exact_names
from wiki.search.highlight import highlight, highlighter, identifier_highlighter, snippet
from wiki.search.identifiers import identifier_forms
from wiki.search.index import kind_marker
from wiki.search.syntax import Understood, understand
from wiki.search.terms import Suggestion, Term, current_glossary
from wiki.search.words import Words, read_query, tsquery_operand

MAX_QUERY_LENGTH = 200
KIND_ORDER = [SearchDocument.Kind.PAGE, SearchDocument.Kind.CLAIM, SearchDocument.Kind.SOURCE, SearchDocument.Kind.QUESTION]


@dataclass(frozen=True)
class Hit:
    kind: str
    object_id: int
    title: str
    url: str
    rank: float
    title_html: SafeString
    snippet_html: SafeString
    # a work's classifications, its own first, then its components': mechanisms[i] with verdicts[i]
    mechanisms: tuple[str, ...] = ()
    verdicts: tuple[str, ...] = ()

    @property
    def mechanism(self) -> str:
        """The work's own mechanism, else its first component's ("" for a work not classified, or not a work)."""
        return self.mechanisms[0] if self.mechanisms else ""

    @property
    def verdict(self) -> str:
        return self.verdicts[0] if self.verdicts else ""

    @property
    def verdict_badges(self) -> list[str]:
        """Each verdict once, in order: a work classified per component may have several."""
        return list(dict.fromkeys(self.verdicts))


@dataclass(frozen=True)
class Group:
    kind: str
    label: str
    total: int  # matches of this kind, counted up to the plan's cap
    hits: list[Hit]  # this page's: none when the kind's matches are all on other pages
    total_capped: bool = False  # there are more than ``total`` matches


@dataclass(frozen=True)
class SearchResults:
    query: str
    groups: list[Group] = field(default_factory=list)
    terms: list[Term] = field(default_factory=list)  # glossary terms the query named, searched by all their names
    suggestions: list[Suggestion] = field(default_factory=list)  # close terms, when nothing matched
    close: list[CloseName] = field(default_factory=list)  # works and pages named close, when nothing matched
    exact: list[CloseName] = field(default_factory=list)  # works and pages named exactly as the query, unfiltered
    understood: Understood = field(default_factory=Understood)  # its phrases, exclusions and ORs

    @property
    def total(self) -> int:
        return sum(group.total for group in self.groups)

    @property
    def total_capped(self) -> bool:
        return any(group.total_capped for group in self.groups)


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
#   matches    -- for each kind the widest step that ran, numbered by importance (pinned documents first:
#                 a page, work or question called exactly what the query says, then the works classified as
#                 the mechanism or verdict the query names and the page defining its term), with its count;
#   ranked     -- the first `ranked` of them re-ordered, pinned first, then by ts_rank (title words weigh
#                 most); the rest by importance, so that pages of results never overlap;
# and only the page kept is joined back for titles and bodies (a kind with no hit on the page still gives its
# first row, without them, for its count: every page of results counts the same). A query naming a glossary term
# matches any of its names: each alternative is its own condition (an AND of words), which PostgreSQL ORs as
# bitmaps of separate GIN scans (and ANDs with the bitmaps of the query's other terms); one tsquery with OR inside
# would make the index return candidates to recheck against every vector. The tsqueries are constants, so the
# planner sees that the markers make every step small (a GIN bitmap scan, never a table scan), its row estimates
# follow the LIMITs, and every sort fits in the default work_mem.
_SEARCH_SQL = """
WITH kinds AS (
    SELECT kind, ordinal FROM unnest(%(kinds)s::text[]) WITH ORDINALITY AS k(kind, ordinal)
), top1 AS MATERIALIZED (
    SELECT d.kind, d.id, d.importance, {pinned} AS pinned, 1 AS step FROM wiki_searchdocument d
    WHERE ({match_top1}) {filters}
), top2 AS MATERIALIZED (
    {top2}
), everything AS MATERIALIZED (
    {everything}
), matches AS (
    SELECT kind, id, importance, pinned,
           row_number() OVER (PARTITION BY kind ORDER BY pinned DESC, importance DESC, id) AS by_importance,
           count(*) OVER (PARTITION BY kind) AS found
    FROM (
        SELECT u.*, max(step) OVER (PARTITION BY kind) AS widest
        FROM (SELECT * FROM top1 UNION ALL SELECT * FROM top2 UNION ALL SELECT * FROM everything) u
    ) steps
    WHERE step = widest
), ranked AS (
    SELECT m.kind, m.id, m.found, ts_rank(d.vector, {query}) AS rank, m.by_importance, m.importance, m.pinned
    FROM matches m JOIN wiki_searchdocument d ON d.id = m.id
    WHERE m.by_importance <= greatest(%(ranked)s, %(last)s)
), numbered AS (
    SELECT kind, id, found, rank,
           row_number() OVER (
               PARTITION BY kind
               ORDER BY by_importance > %(ranked)s, pinned DESC, CASE WHEN by_importance <= %(ranked)s THEN rank END DESC,
                        importance DESC, id
           ) AS row
    FROM ranked
)
SELECT n.kind, d.object_id, d.title, d.body, d.url, d.mechanisms, d.verdicts, n.rank,
       least(n.found, %(cap)s) AS kind_total, n.found > %(cap)s AS more
FROM numbered n JOIN kinds k ON k.kind = n.kind
     LEFT JOIN wiki_searchdocument d ON d.id = n.id AND n.row > %(first)s AND n.row <= %(last)s
WHERE (n.row > %(first)s AND n.row <= %(last)s) OR n.row = 1
ORDER BY k.ordinal, n.row
"""
# The per-kind steps: each runs only when the narrower steps found `cap` or fewer documents of its kind
# (conditions without columns: PostgreSQL checks them once and skips the scan).
_TOP2_STEP = """SELECT d.kind, d.id, d.importance, {pinned} AS pinned, 2 AS step FROM wiki_searchdocument d
    WHERE ({match}) {filters}
      AND (SELECT count(*) FROM top1 WHERE kind = %(kind_{i})s) <= %(cap)s"""
_EVERYTHING_STEP = """SELECT * FROM (
        SELECT d.kind, d.id, d.importance, {pinned} AS pinned, 3 AS step FROM wiki_searchdocument d
        WHERE ({match}) {filters}
          AND (SELECT count(*) FROM top2 WHERE kind = %(kind_{i})s) <= %(cap)s
          AND (SELECT count(*) FROM top1 WHERE kind = %(kind_{i})s) <= %(cap)s
        LIMIT %(full_scan)s
    ) all_{i}"""

# Only sources carry a mechanism and a verdict: with either filter, the other kinds are not read at all.
_CLASSIFIED_KINDS = {SearchDocument.Kind.SOURCE}


def _classification_filter(mechanism: str, verdict: str) -> str:
    """The documents with one classification (of the work or a component) having both the mechanism and the
    verdict given, as the sources list filters them."""
    if mechanism and verdict:
        return (" AND EXISTS (SELECT FROM unnest(d.mechanisms, d.verdicts) AS c(mechanism, verdict)"
                " WHERE c.mechanism = %(mechanism)s AND c.verdict = %(verdict)s)")
    if mechanism:
        return " AND %(mechanism)s = ANY(d.mechanisms)"
    if verdict:
        return " AND %(verdict)s = ANY(d.verdicts)"
    return ""


def search_sql(
    words: Words | str, *, kinds: list[str], mechanism: str = "", verdict: str = "", plan: SearchPlan, offset: int, limit: int
) -> tuple[str, dict[str, Any]]:
    """The search statement and its parameters: hits ``offset`` to ``offset + limit`` of each of ``kinds``
    (in that order) for ``words`` (or a ``to_tsquery('simple', …)`` text), with mechanism/verdict filters.
    """
    words = Words.of(words) if isinstance(words, str) else words
    query, conditions, pinned, excluding, params = words.sql()
    filters = _classification_filter(mechanism, verdict) + excluding
    params |= {
        "kinds": kinds, "mechanism": mechanism, "verdict": verdict, "cap": plan.cap,
        "ranked": plan.ranked, "full_scan": plan.full_scan, "first": offset, "last": offset + limit,
        "top1": " | ".join(tsquery_operand(kind_marker(k, 1)) for k in kinds),
    }

    def match(marker: str, *, hidden: bool = False) -> str:
        # hidden: the tsquery is a subquery, so that the planner, blind to how rare the words are, keeps the index
        def one(alternative: str) -> str:
            tsquery = f"{alternative} && %({marker})s::tsquery"
            return f"d.vector @@ (SELECT {tsquery})" if hidden else f"d.vector @@ ({tsquery})"

        return " AND ".join("(" + " OR ".join(one(a) for a in alternatives) + ")" for alternatives in conditions)

    top2, everything = [], []
    for i, kind in enumerate(kinds):
        params |= {f"kind_{i}": kind, f"top2_{i}": tsquery_operand(kind_marker(kind, 2)), f"all_{i}": tsquery_operand(kind_marker(kind))}
        top2.append(_TOP2_STEP.format(match=match(f"top2_{i}"), filters=filters, pinned=pinned, i=i))
        everything.append(_EVERYTHING_STEP.format(match=match(f"all_{i}", hidden=True), filters=filters, pinned=pinned, i=i))
    union = "\n    UNION ALL\n    "
    sql = _SEARCH_SQL.format(query=query, match_top1=match("top1"), filters=filters, pinned=pinned,
                             top2=union.join(top2), everything=union.join(everything))
    return sql, params


def search(
    query: str,
    *,
    kinds: list[str] | None = None,
    mechanism: str = "",
    verdict: str = "",
    limit: int = 10,
    offset: int = 0,
    version: int | None = None,
) -> SearchResults:
    """Hits for ``query`` grouped by kind, best first; ``limit``/``offset`` apply within each kind.

    A glossary term the query names is searched by all its names; the works classified as the mechanism or
    verdict it names, and the page defining it, come first. A word spelled the British or the American way matches
    either spelling (``wiki.search.spelling``); a query that is an arXiv ID or a DOI is searched in the forms a work
    holds it (``wiki.search.identifiers``). Mechanism and verdict filters keep the documents
    that carry them (sources). Totals are counted up to ``COUNT_CAP`` (or ``offset + limit`` if larger); a capped
    group says so with ``total_capped``. Unfiltered, the first page names the works and pages named exactly as the
    query; nothing found, the results suggest close glossary terms and, unfiltered, works and pages named close to the
    query. One SQL query, one more unfiltered for the works and pages named as the query (and one for the glossary,
    and two for every name when nothing was found, when the cache does not hold them);
    ``version`` is the content version the caller already read, if any.
    """
    query = query.strip()[:MAX_QUERY_LENGTH]
    glossary = current_glossary(version=version)
    understood = Understood() if (forms := identifier_forms(query)) else understand(query)
    # What names are compared with: the query, or what it looks for when it has operators.
    named = understood.positive_text if understood.has_operators else query
    terms: tuple[Term, ...] = ()
    if forms:
        words = Words.identifier(forms, exact_name=query)
        pattern = identifier_highlighter(forms)
    else:
        reading = read_query(understood, glossary, exact_name=named)
        words, terms = reading.words, reading.terms
        phrases = [piece.text for clause in understood.clauses for piece in clause if piece.phrase]
        pattern = highlighter(named, terms, reading.rest, phrases=phrases)
    if not words.groups:
        return SearchResults(query=query, understood=understood)
    wanted = [k.value for k in KIND_ORDER if (not kinds or k in kinds) and (not (mechanism or verdict) or k in _CLASSIFIED_KINDS)]
    if not wanted:
        return SearchResults(query=query, terms=list(terms), understood=understood)
    sql, params = search_sql(words, kinds=wanted, mechanism=mechanism, verdict=verdict,
                             plan=SearchPlan.for_window(offset=offset, limit=limit), offset=offset, limit=limit)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        columns = [c.name for c in cursor.description or ()]
        rows = [dict(zip(columns, values, strict=True)) for values in cursor.fetchall()]
    hits: dict[str, list[Hit]] = {}
    totals: dict[str, tuple[int, bool]] = {}
    for row in rows:
        totals[row["kind"]] = (row["kind_total"], row["more"])
        kind_hits = hits.setdefault(row["kind"], [])
        if row["object_id"] is None:  # the kind's count only: its hits are on other pages
            continue
        kind_hits.append(
            Hit(
                kind=row["kind"],
                object_id=row["object_id"],
                title=row["title"],
                url=row["url"],
                rank=float(row["rank"]),
                title_html=highlight(row["title"], pattern),
                snippet_html=snippet(row["body"], pattern),
                mechanisms=tuple(row["mechanisms"]),
                verdicts=tuple(row["verdicts"]),
            )
        )
    labels = dict(SearchDocument.Kind.choices)
    groups = [
        Group(kind=k.value, label=str(labels[k]), total=totals[k][0], total_capped=totals[k][1], hits=hits[k])
        for k in KIND_ORDER if k in hits
    ]
    filtered = bool(kinds or mechanism or verdict)
    exact = [] if filtered or offset else exact_names(named)
    if any(group.hits for group in groups) or offset:
        return SearchResults(query=query, groups=groups, terms=list(terms), exact=exact, understood=understood)
    return SearchResults(query=query, terms=list(terms), suggestions=glossary.suggest(named),
                         close=[] if filtered else close_names(named, version=version), exact=exact, understood=understood)
