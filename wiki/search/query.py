"""Running a search: one SQL query returns the best hits of every kind with their per-kind totals."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.db import connection
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from wiki.models import SearchDocument
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
    total: int
    hits: list[Hit]


@dataclass(frozen=True)
class SearchResults:
    query: str
    groups: list[Group] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(group.total for group in self.groups)


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


# Ranking and numbering run over narrow rows (id, kind, rank); only the rows kept are joined back for
# their title and body, so a common word matching most documents never sorts their bodies.
_SEARCH_SQL = """
WITH hits AS (
    SELECT id, kind, ts_rank(vector, to_tsquery('simple', %(tsquery)s)) AS rank
    FROM wiki_searchdocument WHERE {where}
), numbered AS (
    SELECT id, rank,
           row_number() OVER (PARTITION BY kind ORDER BY rank DESC, id) AS row,
           count(*) OVER (PARTITION BY kind) AS kind_total
    FROM hits
)
SELECT d.kind, d.object_id, d.title, d.body, d.url, d.mechanism, d.verdict, n.rank, n.kind_total
FROM numbered n JOIN wiki_searchdocument d ON d.id = n.id
WHERE n.row > %(first)s AND n.row <= %(last)s
ORDER BY d.kind, n.row
"""


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

    Mechanism and verdict filters keep the documents that carry them (sources).
    """
    query = query.strip()[:MAX_QUERY_LENGTH]
    tsquery = tsquery_text(query)
    if not tsquery:
        return SearchResults(query=query)
    conditions = ["vector @@ to_tsquery('simple', %(tsquery)s)"]
    if kinds:
        conditions.append("kind = ANY(%(kinds)s)")
    if mechanism:
        conditions.append("mechanism = %(mechanism)s")
    if verdict:
        conditions.append("verdict = %(verdict)s")
    params = {"tsquery": tsquery, "kinds": kinds, "mechanism": mechanism, "verdict": verdict,
              "first": offset, "last": offset + limit}
    with connection.cursor() as cursor:
        cursor.execute(_SEARCH_SQL.format(where=" AND ".join(conditions)), params)
        columns = [c.name for c in cursor.description]  # type: ignore[union-attr]
        rows = [dict(zip(columns, values)) for values in cursor.fetchall()]
    pattern = _highlighter(query)
    hits: dict[str, list[Hit]] = {}
    totals: dict[str, int] = {}
    for row in rows:
        totals[row["kind"]] = row["kind_total"]
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
    groups = [Group(kind=k.value, label=str(labels[k]), total=totals[k], hits=hits[k]) for k in KIND_ORDER if k in hits]
    return SearchResults(query=query, groups=groups)
