"""Search latency on the database in DATABASE_URL: p50/p95 per query and what PostgreSQL did for the headline terms.

Run against a generated wiki (``generate_wiki`` builds the search index), e.g.::

    DATABASE_URL=postgres://… python manage.py generate_wiki --works 10000 --claims 100000 --pages 10000
    DATABASE_URL=postgres://… python benchmarks/search_bench.py

The headline terms are a word found in about half the documents (``reward``), two common Chinese
words (``环境``, ``策略梯度``: three overlapping bigrams) and a rare term; the glossary expands all but the
rare one (``策略梯度`` to its English names and the works classified as policy gradient). Each runs ``--runs`` times
through ``wiki.search.query.search`` (SQL + snippets, as the search page calls it); then its statement
runs under ``EXPLAIN (ANALYZE, BUFFERS)`` and the summary says whether every sort stayed in memory,
whether the 100k-row table was scanned whole, and the rows the planner expected against the rows it
got. ``--all`` adds a mixed set (Chinese bigrams, single characters, English words and prefixes, work
names, British spellings, accents, an arXiv ID, filtered) and the API's latency and query count; ``--plans`` prints the full plans; ``--reindex``
rebuilds the index first.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from wiki.models import Claim, OpenQuestion, Page, SearchDocument, Source  # noqa: E402
from wiki.search.index import search_reindex_all  # noqa: E402
from wiki.search.query import KIND_ORDER, SearchPlan, search, search_sql  # noqa: E402
from wiki.search.terms import current_glossary  # noqa: E402
from wiki.search.words import Words  # noqa: E402

HEADLINE = ["reward", "环境", "策略梯度"]
RARE_DEFAULT = "Shepherd"
MIXED: list[tuple[str, dict[str, str]]] = [
    (q, {}) for q in [
        "信用分配", "奖励", "轨迹回报", "参数空间", "长程网页任务", "工具调用推理", "终端任务", "软件工程",
        "奖", "树", "验证器", "强化学习", "蒸馏", "推理时搜索", "多轮", "稀疏奖励", "更新策略", "外部 harness",
        "GRPO", "grpo", "PPO", "REINFORCE", "DPO", "rollout", "policy gradient", "skill", "skillforge",
        "StarHarness", "Agentic RL", "tree search", "evolution strategy", "verifier", "long-horizon web agents",
        "ES 参数", "GRPO 奖励", "rollout 成本", "agent 环境 奖励", "SFT 蒸馏", "PPO 策略", "Tool-Use RL", "reward hacking",
        "WebForge", "TreeRL", "Async Rollout", "Self-Play", "Off-Policy Correction",
        "policy optimisation", "behaviour", "Müller", "arXiv:2307.13854v2",
    ]
] + [
    ("GRPO", {"kind": "claim"}), ("奖励", {"kind": "page"}), ("agent", {"kind": "source", "verdict": "strict"}),
    ("harness", {"kind": "source", "mechanism": "harness"}), ("强化学习", {"kind": "question"}),
]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def timed(query: str, runs: int, **options: Any) -> tuple[list[float], int, bool]:
    search(query, **options)  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        results = search(query, **options)
        times.append((time.perf_counter() - start) * 1000)
    return times, results.total, results.total_capped


def explain(query: str) -> tuple[dict[str, Any], str]:
    """The search page's statement for ``query`` (its glossary terms expanded, as ``search`` does) under EXPLAIN
    ANALYZE: (JSON plan, text plan)."""
    words = Words.expanded(current_glossary().expand(query))
    sql, params = search_sql(words, kinds=[k.value for k in KIND_ORDER], plan=SearchPlan.for_window(offset=0, limit=10),
                             offset=0, limit=10)
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + sql, params)
        plan = cursor.fetchone()[0][0]  # type: ignore[index]
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, params)
        text = "\n".join(row[0] for row in cursor.fetchall())
    return plan, text


def _nodes(node: dict[str, Any]) -> list[dict[str, Any]]:
    found = [node]
    for child in node.get("Plans", []):
        found += _nodes(child)
    return found


def plan_summary(plan: dict[str, Any]) -> str:
    """Sorts in memory or on disk, whole-table scans of the documents, rows estimated vs actual."""
    nodes = _nodes(plan["Plan"])
    sorts = [n for n in nodes if n["Node Type"] in ("Sort", "Incremental Sort")]
    on_disk = [n for n in sorts if n.get("Sort Space Type") == "Disk" or "external" in n.get("Sort Method", "")]
    seq = [n for n in nodes if n["Node Type"] == "Seq Scan" and n.get("Relation Name") == "wiki_searchdocument"]
    top = plan["Plan"]

    def misestimate(n: dict[str, Any]) -> float:
        actual = n["Actual Rows"] * n.get("Actual Loops", 1)
        estimated = n["Plan Rows"] * n.get("Actual Loops", 1)
        return max(actual, 1) / max(estimated, 1) if actual > estimated else max(estimated, 1) / max(actual, 1)

    worst = max(nodes, key=misestimate)
    memory = max((n.get("Sort Space Used", 0) for n in sorts), default=0)
    return (
        f"{len(sorts)} sorts, {len(on_disk)} on disk (largest {memory} kB); "
        f"{len(seq)} seq scans of wiki_searchdocument; shared buffers hit {top.get('Shared Hit Blocks', 0)}, "
        f"read {top.get('Shared Read Blocks', 0)}; rows estimated {top['Plan Rows']} vs actual {top['Actual Rows']}; "
        f"worst estimate {worst['Node Type']} {worst['Plan Rows']} vs {worst['Actual Rows']} x{worst.get('Actual Loops', 1)} loops; "
        f"{plan['Execution Time']:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="Timed runs per query (after one warm-up).")
    parser.add_argument("--rare", default=RARE_DEFAULT, help="The rare term of the headline set.")
    parser.add_argument("--reindex", action="store_true", help="Rebuild the index first.")
    parser.add_argument("--plans", action="store_true", help="Print the full EXPLAIN (ANALYZE, BUFFERS) output.")
    parser.add_argument("--all", action="store_true", help="Also time the mixed query set and the API.")
    args = parser.parse_args()

    print(f"database: {connection.settings_dict['NAME']} — {Page.objects.count():,} pages, {Claim.objects.count():,} claims, "
          f"{Source.objects.count():,} sources, {OpenQuestion.objects.count():,} questions")
    if args.reindex:
        started = time.perf_counter()
        counts = search_reindex_all()
        print(f"reindex: {time.perf_counter() - started:.1f} s, " + ", ".join(f"{n:,} {kind}s" for kind, n in counts.items()))
    print(f"index: {SearchDocument.objects.count():,} documents")
    with connection.cursor() as cursor:
        cursor.execute("SHOW work_mem")
        print(f"work_mem: {cursor.fetchone()[0]}")  # type: ignore[index]

    print(f"\n{'term':<12} {'matches':>8} {'p50 ms':>8} {'p95 ms':>8}   plan (EXPLAIN ANALYZE of the same statement)")
    for term in [*HEADLINE, args.rare]:
        times, total, capped = timed(term, args.runs)
        plan, text = explain(term)
        shown = f"{total:,}{'+' if capped else ''}"
        print(f"{term:<12} {shown:>8} {percentile(times, 50):>8.1f} {percentile(times, 95):>8.1f}   {plan_summary(plan)}")
        if args.plans:
            print(text + "\n")

    if not args.all:
        return
    client = Client()
    latencies: list[float] = []
    api_latencies: list[float] = []
    query_counts: set[int] = set()
    print(f"\n{'query':<28} {'filters':<28} {'hits':>7} {'p50 ms':>8} {'max ms':>8}")
    for query, filters in MIXED:
        kinds = [filters["kind"]] if "kind" in filters else None
        times, total, capped = timed(query, args.runs, kinds=kinds, mechanism=filters.get("mechanism", ""),
                                     verdict=filters.get("verdict", ""))
        latencies += times
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            response = client.get("/api/v1/search/", {"q": query, **filters})
            api_latencies.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.content[:200]
        query_counts.add(len(captured.captured_queries))
        label = ", ".join(f"{k}={v}" for k, v in filters.items())
        shown = f"{total:,}{'+' if capped else ''}"
        print(f"{query:<28} {label:<28} {shown:>7} {statistics.median(times):>8.1f} {max(times):>8.1f}")
    print(f"\n{len(MIXED)} queries x {args.runs} runs: p50 {percentile(latencies, 50):.1f} ms, "
          f"p95 {percentile(latencies, 95):.1f} ms, max {max(latencies):.1f} ms")
    print(f"API /api/v1/search/ (one run each): p50 {percentile(api_latencies, 50):.1f} ms, "
          f"p95 {percentile(api_latencies, 95):.1f} ms; SQL queries per request: {sorted(query_counts)}")


if __name__ == "__main__":
    main()
