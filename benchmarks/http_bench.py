"""Requests per second of the wiki beside a bare Django view, under the production server, in one run.

Start it against a generated wiki (the database in DATABASE_URL)::

    DATABASE_URL=postgres://… python manage.py generate_wiki --works 10000 --claims 100000 --pages 10000
    DATABASE_URL=postgres://… python manage.py load_wiki
    DATABASE_URL=postgres://… python benchmarks/http_bench.py [--duration 10] [--rounds 3]

It collects static files, starts gunicorn with config/gunicorn.conf.py (DEBUG off, hashed static
files, the cache in Redis at --redis or, with --redis '', the database) serving the wiki plus one bare
Django view, reads every sampled address once so that the cache holds what readers would find there,
then runs wrk (Debian's package) over each case and prints req/s, p50 and p99 latency, and the ratio
to the bare view measured in the same round. The machine may be noisy: compare ratios, not absolute
figures, and run several rounds.

With ``--after-writes N`` it then times what a reader waits for right after an editor saves: for each kind of
write (a page's text edited, a claim added to a page, a work added, a work classified, each through the services),
N times, the write, then one request of each of searches for a common and a rare word and the map (the first,
whose cached answer the write made stale, then the same again, warm), one request at a time, beside the bare view;
it prints the medians in ms and as a multiple of the bare view's. With it, wrk runs only the cases ``--only`` names
(none unless told)::

    DATABASE_URL=postgres://… python benchmarks/http_bench.py --after-writes 7
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import re
import secrets
import shutil
import signal
import statistics
import string
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.serving import free_port, setup_django  # noqa: E402


@dataclass(frozen=True)
class Case:
    name: str
    paths: list[str]
    logged_in: bool = False


@dataclass(frozen=True)
class Figures:
    rps: float
    p50_ms: float
    p99_ms: float
    errors: int


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=int, default=10, help="seconds of load per case (default 10)")
    parser.add_argument("--connections", type=int, default=8, help="wrk connections (default 8)")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads (default 2)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes (default 2)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds over every case (default 1)")
    parser.add_argument("--sample", type=int, default=2000, help="random pages and works to address (default 2000)")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/15", help="shared cache; '' for the database cache")
    parser.add_argument("--only", default="", help="case names to run, separated by semicolons (with --after-writes: none "
                        "unless named)")
    parser.add_argument("--port", type=int, default=0, help="gunicorn's port (default: a free one)")
    parser.add_argument("--after-writes", type=int, default=0, metavar="N",
                        help="time searches and the map right after each kind of write, N times each (default 0: not)")
    parser.add_argument("--gzip", action="store_true",
                        help="send Accept-Encoding: gzip, as browsers do (anonymous pages then come compressed)")
    return parser.parse_args()


def cases(sample: int) -> tuple[list[Case], str]:
    """The addresses of every case, and the session cookie of a logged-in editor."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.contrib.sessions.backends.cached_db import SessionStore
    from django.urls import reverse

    from wiki.models import Page, Source

    rng = random.Random(7)
    page_slugs = list(Page.objects.values_list("slug", flat=True))
    source_slugs = list(Source.objects.values_list("slug", flat=True))
    pages = [reverse("wiki:page-detail", kwargs={"slug": s}) for s in rng.sample(page_slugs, min(sample, len(page_slugs)))]
    sources = [reverse("wiki:source-detail", kwargs={"slug": s}) for s in rng.sample(source_slugs, min(sample, len(source_slugs)))]
    api_pages = [reverse("api:page-detail", kwargs={"slug": s}) for s in rng.sample(page_slugs, min(sample, len(page_slugs)))]

    user, _ = get_user_model().objects.get_or_create(username="bench-editor")
    user.groups.add(Group.objects.get(name="editors"))
    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = settings.AUTHENTICATION_BACKENDS[0]
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.create()
    # as a browser holds them once logged in: the session, and the CSRF secret its first form set
    csrf_secret = "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(32))
    cookie = f"{settings.SESSION_COOKIE_NAME}={session.session_key}; {settings.CSRF_COOKIE_NAME}={csrf_secret}"

    search = reverse("wiki:search")
    return [
        Case("random page", pages),
        Case("random page, logged in", pages, logged_in=True),
        Case("Agentic RL page", [reverse("wiki:page-detail", kwargs={"slug": "agentic-rl"})]),
        Case("random source page", sources),
        Case("contrast SkillForge/StarHarness", [reverse("wiki:contrast", kwargs={"left": "skillforge", "right": "starharness"})]),
        Case("map /graph/", [reverse("wiki:graph-map")]),
        Case("home", [reverse("wiki:home")]),
        Case("search reward", [search + "?q=reward"]),
        Case("search 环境", [search + "?" + urllib.parse.urlencode({"q": "环境"})]),
        Case("search 策略梯度", [search + "?" + urllib.parse.urlencode({"q": "策略梯度"})]),
        Case("search rare term", [search + "?q=skillforge"]),
        Case("API page detail", api_pages),
    ], cookie


def lua_script(paths: list[str], cookie: str | None, *, gzip: bool = False) -> str:
    quoted = ",\n".join('"' + p.replace("\\", "\\\\").replace('"', '\\"') + '"' for p in paths)
    header = f'wrk.headers["Cookie"] = "{cookie}"\n' if cookie else ""
    header += 'wrk.headers["Accept-Encoding"] = "gzip"\n' if gzip else ""
    return (
        f"{header}local paths = {{\n{quoted}\n}}\nlocal n = #paths\nlocal i = 0\n"
        "request = function()\n  i = i + 1\n  return wrk.format(\"GET\", paths[math.random(n)])\nend\n"
        "init = function(args)\n  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16))\nend\n"
    )


_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def _ms(text: str) -> float:
    """wrk's "981.00us", "3.20ms", "1.02s" or "1.50m" in milliseconds; NaN when no request finished."""
    found = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    return float(found.group(1)) * _UNITS[found.group(2)] if found else float("nan")


def run_wrk(base: str, case: Case, cookie: str, args: argparse.Namespace, workdir: Path) -> Figures:
    script = workdir / "case.lua"
    script.write_text(lua_script(case.paths, cookie if case.logged_in else None, gzip=args.gzip), encoding="utf-8")
    out = subprocess.run(
        ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{args.duration}s", "--latency", "-s", str(script), base],
        capture_output=True, text=True, check=True,
    ).stdout
    # The latency distribution's own lines ("     50%    3.20ms"), not a "+/- Stdev" figure such as "90.50%".
    rps_found, p50_found, p99_found = (re.search(p, out, re.MULTILINE) for p in (
        r"Requests/sec:\s+([\d.]+)", r"^\s+50%\s+(\S+)$", r"^\s+99%\s+(\S+)$"))
    rps = float(rps_found.group(1)) if rps_found else 0.0
    p50 = _ms(p50_found.group(1)) if p50_found else float("nan")
    p99 = _ms(p99_found.group(1)) if p99_found else float("nan")
    errors = sum(int(n) for n in re.findall(r"Non-2xx or 3xx responses:\s+(\d+)", out))
    errors += sum(int(n) for n in re.findall(r"Socket errors:.*?(\d+)", out)) if "Socket errors" in out else 0
    return Figures(rps, p50, p99, errors)


def warm(base: str, case: Case, cookie: str) -> list[tuple[str, int]]:
    """Reads each address once, as readers would have before, so that the cache holds it; returns the addresses
    that answered with an error, and its status."""
    headers = {"Cookie": cookie} if case.logged_in else {}

    def fetch(path: str) -> tuple[str, int]:
        request = urllib.request.Request(base + path, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                response.read()
                return path, response.status
        except urllib.error.HTTPError as error:
            return path, error.code

    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=4) as pool:
        failed = [(path, status) for path, status in pool.map(fetch, case.paths) if status >= 400]
    print(f"  warmed {len(case.paths)} address(es) of “{case.name}” in {time.monotonic() - started:.0f} s", flush=True)
    return failed


# What is read right after a write, when the cached answer has to be made again.
AFTER_WRITE_PATHS = {"search reward": "/search/?q=reward", "search rare term": "/search/?q=skillforge", "map /graph/": "/graph/"}


def writes() -> dict[str, Callable[[], object]]:
    """One write of each kind an editor makes, through the services, each a new one every time it is called."""
    from wiki.models import Page, Source
    from wiki.references.draft import SourceDraft
    from wiki.services.classifications import classification_save
    from wiki.services.pages import page_save
    from wiki.services.sources import source_create

    count = itertools.count(int(time.time()))
    pages = list(Page.objects.filter(slug__contains="-g0r1-").order_by("pk").values_list("slug", flat=True)[:500])
    unclassified = list(Source.objects.classified(False).order_by("pk").values_list("pk", flat=True)[:500])
    cited = Source.objects.order_by("pk").values_list("title", flat=True).first()

    def add_to_page(text: str) -> None:
        page = Page.objects.get(slug=pages[next(count) % len(pages)])
        page_save(slug=page.slug, title=page.title, body=f"{page.body}\n\n{text}", comment="benchmark")

    def classify() -> None:
        classification_save(source=Source.objects.get(pk=unclassified.pop()), fields={
            "mechanism": "policy_gradient", "verdict": "strict", "interactive_env": True, "multi_step": True,
            "verifiable_reward": True, "rl_update": True})

    return {
        "edit a page": lambda: add_to_page(f"补充说明 {next(count)}。"),
        "add a claim": lambda: add_to_page(f"新的论断 {next(count)}。（来源：{cited}，§1）"),
        "add a work": lambda: source_create(draft=SourceDraft(
            title=f"Benchmark work {(n := next(count))} on agents", short_name=f"BenchWork{n}", year=2025)),
        "classify a work": classify,
    }


def timed_get(base: str, path: str) -> float:
    started = time.perf_counter()
    with urllib.request.urlopen(base + path, timeout=120) as response:
        response.read()
    return (time.perf_counter() - started) * 1000


def after_writes(base: str, repeats: int) -> None:
    """Prints the median ms of each read right after each kind of write (cold) and read again (warm), and of the bare
    view, one request at a time."""
    for path in AFTER_WRITE_PATHS.values():
        for _ in range(2 * 4):  # each worker has answered each search before: its answer is kept (wiki.caching.responses)
            timed_get(base, path)
    print(f"\nright after a write, one request at a time: median ms of {repeats} (÷ bare: as many bare views)")
    print(f"{'write':16} {'read':18} {'cold ms':>8} {'warm ms':>8} {'bare ms':>8} {'cold ÷ bare':>12} {'warm ÷ bare':>12}")
    for write_name, write in writes().items():
        for read_name, path in AFTER_WRITE_PATHS.items():
            cold, warm, bare = [], [], []
            for _ in range(repeats):
                write()
                cold.append(timed_get(base, path))
                warm.append(timed_get(base, path))
                bare.append(timed_get(base, "/bench/bare/"))
            c, w, b = statistics.median(cold), statistics.median(warm), statistics.median(bare)
            print(f"{write_name:16} {read_name:18} {c:8.1f} {w:8.1f} {b:8.1f} {c / b:12.1f} {w / b:12.1f}", flush=True)


def worker_rss_mb(server: subprocess.Popen[bytes]) -> list[float]:
    children = subprocess.run(["pgrep", "-P", str(server.pid)], capture_output=True, text=True).stdout.split()
    sizes = []
    for pid in children:
        try:
            rss_kb = int(Path(f"/proc/{pid}/status").read_text().split("VmRSS:")[1].split()[0])
            sizes.append(rss_kb / 1024)
        except (OSError, IndexError):
            pass
    return sizes


def main() -> None:
    args = parse_args()
    setup_django(args.redis)
    from django.core.cache import cache

    cache.clear()
    all_cases, cookie = cases(args.sample)
    if args.only or args.after_writes:
        wanted = {n.strip() for n in args.only.split(";")}
        all_cases = [c for c in all_cases if c.name in wanted]
    if all_cases and not shutil.which("wrk"):
        sys.exit("wrk is not installed: apt-get install wrk")

    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "benchmarks.bench_settings", "DJANGO_DEBUG": "0", "WIKI_HASHED_STATIC": "1",
           "REDIS_URL": args.redis, "WEB_CONCURRENCY": str(args.workers), "WEB_ACCESS_LOG": "", "LOG_LEVEL": "warning",
           # The load generator is one client: the anonymous API rate would answer most of its requests 429.
           "API_ANON_RATE": "100000000/minute"}
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--no-input", "--verbosity", "0"], cwd=ROOT, env=env, check=True)
    port = args.port or free_port()
    env["PORT"] = str(port)
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.conf.py", "config.wsgi"], cwd=ROOT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(base + "/health/", timeout=2).read()
                break
            except OSError:
                time.sleep(0.5)
        else:
            sys.exit("the server did not answer /health/")
        bare = Case("bare Django view", ["/bench/bare/"])
        print(f"gunicorn: {args.workers} workers × {os.environ.get('WEB_THREADS', '4')} threads; wrk -t{args.threads} "
              f"-c{args.connections} -d{args.duration}s; cache: {args.redis or 'database'}", flush=True)
        for case in all_cases:
            failed = warm(base, case, cookie)
            if failed:
                path, status = failed[0]
                sys.exit(f"“{case.name}”: {len(failed)} of its addresses answer an error ({path}: {status}), which would "
                         "time error pages; the Agentic RL page and the SkillForge/StarHarness contrast are the wiki's "
                         "own: run `manage.py load_wiki` on this database too")
        rows: dict[str, list[tuple[Figures, float]]] = {c.name: [] for c in all_cases}
        bare_rows: list[Figures] = []
        with tempfile.TemporaryDirectory() as tmp:
            for round_number in range(1, args.rounds + 1 if all_cases else 1):
                before = run_wrk(base, bare, cookie, args, Path(tmp))
                results = [(case, run_wrk(base, case, cookie, args, Path(tmp))) for case in all_cases]
                after = run_wrk(base, bare, cookie, args, Path(tmp))
                bare_rps = (before.rps + after.rps) / 2
                bare_rows += [before, after]
                print(f"\nround {round_number}: bare Django view {before.rps:,.0f} / {after.rps:,.0f} req/s (before / after), "
                      f"p50 {before.p50_ms:.2f} ms, p99 {before.p99_ms:.2f} ms")
                print(f"{'case':34} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'÷ bare':>8} {'errors':>7}")
                for case, f in results:
                    rows[case.name].append((f, f.rps / bare_rps))
                    print(f"{case.name:34} {f.rps:9,.0f} {f.p50_ms:8.2f} {f.p99_ms:8.2f} {f.rps / bare_rps:8.1%} {f.errors:7d}", flush=True)
        if args.after_writes:
            after_writes(base, args.after_writes)
        if args.rounds > 1 and all_cases:
            print(f"\nmedian of {args.rounds} rounds")
            print(f"{'case':34} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'÷ bare':>8}")
            for name, found in rows.items():
                print(f"{name:34} {statistics.median(f.rps for f, _ in found):9,.0f} "
                      f"{statistics.median(f.p50_ms for f, _ in found):8.2f} {statistics.median(f.p99_ms for f, _ in found):8.2f} "
                      f"{statistics.median(r for _, r in found):8.1%}")
        print(f"\nworker RSS (MB): {', '.join(f'{m:.0f}' for m in worker_rss_mb(server))}")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
