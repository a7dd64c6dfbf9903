"""Naming the queries a request ran, so that query-count tests say which queries they expect, not only how many."""

from __future__ import annotations

import re

from django.test.utils import CaptureQueriesContext

# The project's tables and Django's own; a function such as unnest() in a FROM is not one.
_TABLE_RE = re.compile(r'\b(?:FROM|INTO|UPDATE|JOIN)\s+"?((?:wiki|auth|django)_\w+)', re.IGNORECASE)


def query_name(sql: str) -> str:
    """``SELECT wiki_page``, ``COUNT wiki_source``, ``INSERT wiki_changeevent``, ``SAVEPOINT``: the kind of statement
    and the first table it reads or writes."""
    kind = sql.lstrip().split(None, 1)[0].upper()
    if kind == "SELECT" and re.match(r"\s*SELECT\s+COUNT\(\*\)", sql, re.IGNORECASE):
        kind = "COUNT"
    table = _TABLE_RE.search(sql)
    return f"{kind} {table.group(1)}" if table else kind


def query_names(queries: CaptureQueriesContext) -> list[str]:
    return [query_name(query["sql"]) for query in queries.captured_queries]
