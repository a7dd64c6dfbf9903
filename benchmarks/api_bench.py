"""What a page of an API list costs at its start and deep in it, by page number and by cursor, beside a bare Django
REST framework view and a bare Django view, under the production server, in one run.

Start it against a large wiki (the database in DATABASE_URL); with fewer works than --works it generates one first::

    DATABASE_URL=postgres://… python benchmarks/api_bench.py [--works 10000] [--requests 30] [--rounds 3]

It starts gunicorn with config/gunicorn.conf.py (DEBUG off, the cache in Redis at --redis or, by default, the
database) serving the wiki plus the two bare views, finds for each list (works, claims) the cursor of the row at
--depth of the list by walking it as a mirror would, then times requests one at a time, the cases in turn: the first
page, the page at that depth by number (an OFFSET), the page at that depth by cursor, and the two bare views. Before
each request of a list it moves the content version, as a write does, so that every answer is computed rather than
read from the cache of rendered answers, as a mirror's walk finds it. It prints the median and 90th percentile of each
case and their ratios: to the first page (what depth costs), and to the bare views (what the API adds). The machine
may be noisy: compare ratios, not absolute figures, and run several rounds.
"""

from __future__ import annotations

import argparse
import http.client
import os
import signal
import statistics
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.serving import free_port, setup_django  # noqa: E402

BARE_DJANGO = "/bench/bare/"
BARE_DRF = "/bench/bare-api/"


@dataclass(frozen=True)
class Case:
    name: str
    path: str
    # "bare" (a yardstick), "first" (the list's address), "number" (the page holding row ``depth``) or "cursor"
    kind: str
    depth: int = 0
    cursor: str = ""

    def url(self, size: int) -> str:
        """The address of one request for ``size`` rows."""
        if self.kind == "bare":
            return self.path
        if self.kind == "number":
            return f"{self.path}?page={self.depth // size + 1}&page_size={size}"
        if self.kind == "cursor":
            return f"{self.path}?after={urllib.parse.quote(self.cursor)}&page_size={size}"
        return f"{self.path}?page_size={size}"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--works", type=int, default=10_000, help="works the wiki should hold at least (default 10000)")
    parser.add_argument("--claims", type=int, default=100_000, help="claims to generate with them (default 100000)")
    parser.add_argument("--depth", type=float, default=0.9, help="how deep the deep pages are, as a share of the list (default 0.9)")
    parser.add_argument("--requests", type=int, default=20, help="requests per case and round (default 20)")
    parser.add_argument("--page-size", type=int, default=50, help="rows per page (default 50, the API's)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds over every case (default 1)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes (default 2)")
    parser.add_argument("--redis", default="", help="shared cache, e.g. redis://127.0.0.1:6379/15; '' for the database cache")
    return parser.parse_args()


def ensure_wiki(works: int, claims: int) -> tuple[int, int]:
    """The wiki's works and claims, after generating them when it holds fewer works than asked for."""
    from django.core.management import call_command

    from wiki.models import Claim, Source

    have = Source.objects.count()
    if have < works:
        print(f"the wiki holds {have} works: generating {works} more with {claims} claims (no search index)", flush=True)
        call_command("generate_wiki", works=works, claims=claims, pages=works, no_index=True, verbosity=1)
    return Source.objects.count(), Claim.objects.on_live_pages().count()


class Client:
    """One keep-alive connection, as a mirror's script holds."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)

    def get(self, url: str) -> tuple[int, bytes, float]:
        started = time.perf_counter()
        self.connection.request("GET", url, headers={"Accept": "application/json"})
        response = self.connection.getresponse()
        body = response.read()
        return response.status, body, time.perf_counter() - started

    def json(self, url: str) -> dict[str, object]:
        import json

        status, body, _ = self.get(url)
        if status != 200:
            sys.exit(f"{url} answered {status}: {body[:300]!r}")
        data: dict[str, object] = json.loads(body)
        return data


def deep_cursor(client: Client, list_path: str, depth: int) -> tuple[str, int]:
    """The cursor of the first page starting at row ``depth`` or after, found by following ``next`` as a mirror walks,
    and how many rows come before it."""
    url: str | None = f"{list_path}?page_size=200"
    read = 0
    while url:
        path = urllib.parse.urlsplit(url)
        body = client.json(f"{path.path}?{path.query}" if path.query else path.path)
        read += len(body["results"])  # type: ignore[arg-type]
        url = body["next"]  # type: ignore[assignment]
        if read >= depth and url:
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)
            return query["after"][0], read
    sys.exit(f"{list_path} holds fewer than {depth} rows")


def cases(client: Client, lists: dict[str, int], share: float) -> list[Case]:
    found = [Case("bare Django view", BARE_DJANGO, "bare"), Case("bare DRF view", BARE_DRF, "bare")]
    for path, count in lists.items():
        started = time.monotonic()
        cursor, depth = deep_cursor(client, path, int(count * share))
        print(f"  walked {path} to row {depth:,} of {count:,} in {time.monotonic() - started:.0f} s", flush=True)
        name = path.strip("/").split("/")[-1]
        found += [
            Case(f"{name}: page 1", path, "first"),
            Case(f"{name}: row {depth:,} by number", path, "number", depth=depth),
            Case(f"{name}: row {depth:,} by cursor", path, "cursor", depth=depth, cursor=cursor),
        ]
    return found


def main() -> None:
    args = parse_args()
    setup_django(args.redis)
    from django.core.cache import cache

    from wiki.caching import versions

    works, claims = ensure_wiki(args.works, args.claims)
    cache.clear()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "benchmarks.bench_settings", "DJANGO_DEBUG": "0",
           "REDIS_URL": args.redis, "WEB_CONCURRENCY": str(args.workers), "WEB_ACCESS_LOG": "", "LOG_LEVEL": "warning",
           # One client reads every page: the anonymous API rate would answer most of its requests 429.
           "API_ANON_RATE": "100000000/minute"}
    port = free_port()
    env["PORT"] = str(port)
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.conf.py", "config.wsgi"], cwd=ROOT, env=env)
    try:
        for _ in range(120):
            try:
                Client(port).get("/health/")
                break
            except OSError:
                time.sleep(0.5)
        else:
            sys.exit("the server did not answer /health/")
        client = Client(port)
        print(f"gunicorn: {args.workers} workers × {os.environ.get('WEB_THREADS', '4')} threads; {works:,} works, "
              f"{claims:,} claims; cache: {args.redis or 'database'}", flush=True)
        all_cases = cases(client, {"/api/v1/sources/": works, "/api/v1/claims/": claims}, args.depth)
        timings: dict[str, list[float]] = {case.name: [] for case in all_cases}
        for _ in range(args.rounds * args.requests):
            for case in all_cases:  # in turn, so that the machine's load falls on every case alike
                if case.kind != "bare":
                    versions.bump()  # what was cached is stale: the answer is computed
                status, body, seconds = client.get(case.url(args.page_size))
                if status != 200:
                    sys.exit(f"“{case.name}” answered {status}: {body[:300]!r}")
                timings[case.name].append(seconds * 1000)
        report(all_cases, timings, args)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


def report(all_cases: list[Case], timings: dict[str, list[float]], args: argparse.Namespace) -> None:
    def p50(name: str) -> float:
        return statistics.median(timings[name])

    bare_django, bare_drf = p50("bare Django view"), p50("bare DRF view")
    print(f"\n{args.requests * args.rounds} requests per case, {args.page_size} rows a page, none read from the cache")
    print(f"{'case':36} {'p50 ms':>8} {'p90 ms':>8} {'÷ page 1':>9} {'÷ bare DRF':>11} {'÷ bare Django':>14}")
    first = ""
    for case in all_cases:
        times = sorted(timings[case.name])
        if case.kind == "first":
            first = case.name
        p90 = times[min(len(times) - 1, int(len(times) * 0.9))]
        to_first = f"{p50(case.name) / p50(first):9.2f}" if case.kind != "bare" else f"{'':9}"
        print(f"{case.name:36} {p50(case.name):8.2f} {p90:8.2f} {to_first} {p50(case.name) / bare_drf:11.1f} "
              f"{p50(case.name) / bare_django:14.1f}")
    for number, cursor in zip([c for c in all_cases if c.kind == "number"], [c for c in all_cases if c.kind == "cursor"],
                              strict=True):
        print(f"{number.name.split(':')[0]}: the page at row {number.depth:,} takes {p50(number.name) / p50(cursor.name):.1f}× "
              "as long by number as by cursor")


if __name__ == "__main__":
    main()
