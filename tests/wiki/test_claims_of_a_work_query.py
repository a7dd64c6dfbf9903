"""The query for a work's claims reads that work's claims by their ids, however many claims the wiki holds."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.models import QuerySet

from wiki.devtools.generate import wiki_generate
from wiki.models import Claim, Source

pytestmark = pytest.mark.django_db


def _claim_rows_read(queryset: QuerySet[Any]) -> int:
    """How many rows of the claims table PostgreSQL read to answer ``queryset``, by its own count (EXPLAIN ANALYZE)."""
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}", params)
        plan = cursor.fetchone()[0]
    read = 0
    nodes = [plan[0]["Plan"]]
    while nodes:
        node = nodes.pop()
        nodes.extend(node.get("Plans", []))
        if node.get("Relation Name") == "wiki_claim":
            # Both are averages over the node's loops.
            read += (node["Actual Rows"] + node.get("Rows Removed by Filter", 0)) * node["Actual Loops"]
    return int(read)


def test_a_works_claims_are_read_by_their_ids_not_by_walking_the_table_or_the_pages() -> None:
    wiki_generate(works=40, claims=600, pages=30, seed=5)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    assert Claim.objects.count() >= 600
    for work in Source.objects.order_by("pk")[:3]:
        claims = Claim.objects.concerning(work.pk)
        count = claims.count()
        assert 0 < count < 100
        # The first claims shown on its page, a page of its list, and their number. Citing it or about it was asked of
        # each claim in turn: the first thirty of a little-cited work read every claim of the wiki, page by page.
        for queryset in (claims[:31], claims[10:20], claims.values("pk")):
            assert _claim_rows_read(queryset) <= count, work.slug
