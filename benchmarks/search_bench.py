"""Search latency on the database in DATABASE_URL: index build time, then p50/p95 per query.

Run against a generated wiki, e.g.::

    DATABASE_URL=postgres://… python manage.py generate_wiki --works 2000 --claims 100000 --pages 10000
    DATABASE_URL=postgres://… python benchmarks/search_bench.py

The index is rebuilt first (``--no-reindex`` to keep it); then each query of a mixed set (Chinese
bigrams, single characters, English words and prefixes, work names, mixed Chinese/English,
filtered) runs ``--runs`` times through ``wiki.search.query.search`` (SQL + snippets) and once
more through the API view, whose query count is reported too.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from wiki.models import Claim, OpenQuestion, Page, SearchDocument, Source  # noqa: E402
from wiki.search.index import search_reindex_all  # noqa: E402
from wiki.search.query import search  # noqa: E402

QUERIES: list[tuple[str, dict[str, str]]] = [
    (q, {}) for q in [
        "信用分配", "奖励", "策略梯度", "环境", "轨迹回报", "参数空间", "长程网页任务", "工具调用推理", "终端任务", "软件工程",
        "奖", "树", "验证器", "强化学习", "蒸馏", "推理时搜索", "多轮", "稀疏奖励", "更新策略", "外部 harness",
        "GRPO", "grpo", "PPO", "REINFORCE", "DPO", "rollout", "reward", "policy gradient", "skill", "skillforge",
        "StarHarness", "Shepherd", "Agentic RL", "tree search", "evolution strategy", "verifier", "long-horizon web agents",
        "ES 参数", "GRPO 奖励", "rollout 成本", "agent 环境 奖励", "SFT 蒸馏", "PPO 策略", "Tool-Use RL", "reward hacking",
        "WebForge", "TreeRL", "Async Rollout", "Self-Play", "Off-Policy Correction",
    ]
] + [
    ("GRPO", {"kind": "claim"}), ("奖励", {"kind": "page"}), ("agent", {"kind": "source", "verdict": "strict"}),
    ("harness", {"kind": "source", "mechanism": "harness"}), ("强化学习", {"kind": "question"}),
]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="Timed runs per query (after one warm-up).")
    parser.add_argument("--no-reindex", action="store_true", help="Keep the current index.")
    args = parser.parse_args()

    print(f"database: {connection.settings_dict['NAME']} — {Page.objects.count():,} pages, {Claim.objects.count():,} claims, "
          f"{Source.objects.count():,} sources, {OpenQuestion.objects.count():,} questions")
    if not args.no_reindex:
        started = time.perf_counter()
        with CaptureQueriesContext(connection) as captured:
            counts = search_reindex_all()
        print(f"reindex: {time.perf_counter() - started:.1f} s, {len(captured.captured_queries)} SQL queries, "
              + ", ".join(f"{n:,} {kind}s" for kind, n in counts.items()))
    print(f"index: {SearchDocument.objects.count():,} documents")

    client = Client()
    latencies: list[float] = []
    api_latencies: list[float] = []
    query_counts: set[int] = set()
    print(f"\n{'query':<28} {'filters':<28} {'hits':>7} {'p50 ms':>8} {'max ms':>8}")
    for query, filters in QUERIES:
        kinds = [filters["kind"]] if "kind" in filters else None
        options = {"kinds": kinds, "mechanism": filters.get("mechanism", ""), "verdict": filters.get("verdict", "")}
        search(query, **options)  # warm-up
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            results = search(query, **options)
            times.append((time.perf_counter() - start) * 1000)
        latencies += times
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            response = client.get("/api/v1/search/", {"q": query, **filters})
            api_latencies.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.content[:200]
        query_counts.add(len(captured.captured_queries))
        label = ", ".join(f"{k}={v}" for k, v in filters.items())
        print(f"{query:<28} {label:<28} {results.total:>7,} {statistics.median(times):>8.1f} {max(times):>8.1f}")

    print(f"\n{len(QUERIES)} queries x {args.runs} runs: p50 {percentile(latencies, 50):.1f} ms, "
          f"p95 {percentile(latencies, 95):.1f} ms, max {max(latencies):.1f} ms")
    print(f"API /api/v1/search/ (one run each): p50 {percentile(api_latencies, 50):.1f} ms, "
          f"p95 {percentile(api_latencies, 95):.1f} ms; SQL queries per request: {sorted(query_counts)}")


if __name__ == "__main__":
    main()
