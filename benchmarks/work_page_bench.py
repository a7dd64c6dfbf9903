"""What the pages and API answers of the most cited work cost, uncached: size, time and SQL queries.

Start it against a wiki holding a work cited by thousands of claims (the database in DATABASE_URL), for instance::

    DATABASE_URL=postgres://… python manage.py generate_wiki --works 1000 --claims 30000
    DATABASE_URL=postgres://… python manage.py generate_wiki --works 2 --claims 3300 --pages 33 --seed 1
    DATABASE_URL=postgres://… python benchmarks/work_page_bench.py [--requests 5] [--slug SLUG]

It serves each address in this process (Django's test client, DEBUG off), moving the content version before each
request, as a write does, so that every answer is computed rather than read from the cache of rendered answers. It
prints for each address the size of the answer, the median time of --requests requests and the number of queries.
The work is --slug, by default the one the most current claims cite; its components' pages are read too.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.serving import setup_django  # noqa: E402


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--slug", default="", help="The work to read; by default the one the most claims cite.")
    parser.add_argument("--requests", type=int, default=5, help="Requests per address (the median is printed).")
    parser.add_argument("--redis", default="", help="Redis URL for the cache; by default the database's.")
    return parser.parse_args()


def most_cited() -> str:
    from django.db.models import Count

    from wiki.models import Source

    return str(Source.objects.annotate(n=Count("citations")).order_by("-n").values_list("slug", flat=True)[0])


def addresses(slug: str) -> list[str]:
    from wiki.models import Component

    paths = [f"/sources/{slug}/", f"/sources/{slug}/claims/", f"/sources/{slug}/claims/?p=2",
             f"/graph/local/source/{slug}/", f"/api/v1/sources/{slug}/", f"/api/v1/claims/?source={slug}",
             f"/api/v1/graph/local/?node=source:{slug}"]
    for component in Component.objects.filter(source__slug=slug).order_by("slug")[:2]:
        paths.append(f"/graph/local/component/{slug}/{component.slug}/")
    return paths


def main() -> None:
    args = parse_args()
    os.environ.setdefault("DJANGO_DEBUG", "0")
    os.environ.setdefault("API_ANON_RATE", "100000000/minute")
    setup_django(args.redis)
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment

    from wiki.caching import versions
    from wiki.models import Claim, Source

    setup_test_environment()
    slug = args.slug or most_cited()
    claims = Claim.objects.concerning(Source.objects.get(slug=slug).pk).count()
    print(f"work {slug}: {claims:,} current claims cite it or are about it; {Claim.objects.count():,} claims in all")
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans", HTTP_HOST="localhost")
    print(f"{'address':60} {'bytes':>10} {'ms (median)':>12} {'queries':>8}")
    for path in addresses(slug):
        times: list[float] = []
        size = queries = status = 0
        for _ in range(args.requests):
            versions.bump()  # what was cached is stale: the answer is computed
            with CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                response = client.get(path)
                times.append((time.perf_counter() - started) * 1000)
            status, size, queries = response.status_code, len(response.content), len(captured)
        print(f"{path:60} {size:>10,} {statistics.median(times):>12.0f} {queries:>8}" + ("" if status == 200 else f"  ({status})"))


if __name__ == "__main__":
    main()
