"""Time and count the queries of the claim graphs on the database in DATABASE_URL.

Run against a generated wiki, e.g.::

    DATABASE_URL=postgres://… python manage.py generate_wiki --works 10000 --claims 100000
    DATABASE_URL=postgres://… python benchmarks/graph_bench.py

For each graph it reports the build time (queries + networkx), the layout and SVG render time,
the number of SQL queries, and the whole view through the test client: warm (served from the
cache) and cold (every cache cleared first, as after a write), which is what a reader waits for
after an edit.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

import networkx as nx  # noqa: E402
from django.core.cache import caches  # noqa: E402
from django.db import connection  # noqa: E402
from django.template.loader import render_to_string  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from wiki.graph import (  # noqa: E402
    Drawing,
    SubjectRef,
    contrast_graph,
    contrast_priority,
    distance_priority,
    draw,
    local_graph,
    map_graph,
)
from wiki.models import Citation, Claim, Contrast, Page, Source  # noqa: E402

RUNS = 5


def measure(fn: Callable[[], object]) -> tuple[float, int, object]:
    """Median wall time in ms over RUNS, and the queries of one run."""
    times = []
    result: object = None
    for _ in range(RUNS):
        start = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - start) * 1000)
    with CaptureQueriesContext(connection) as captured:
        fn()
    return statistics.median(times), len(captured.captured_queries), result


def cold(url: str, client: Client) -> float:
    """Median ms of the view at ``url`` over RUNS, with every cache cleared before each request."""
    times = []
    for _ in range(RUNS):
        for cache in caches.all():
            cache.clear()
        start = time.perf_counter()
        client.get(url)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def render_svg(drawing: object) -> str:
    return render_to_string("wiki/graph/svg.html", {"drawing": drawing, "svg_id": "g", "svg_title": "t", "svg_desc": "d"})


def main() -> None:
    print(f"database: {connection.settings_dict['NAME']} — {Source.objects.count():,} works, {Page.objects.count():,} pages, "
          f"{Claim.objects.count():,} claims, {Citation.objects.count():,} citations, {Contrast.objects.count():,} contrasts")
    generated = Contrast.objects.filter(left__slug__contains="r").order_by("-id").values_list("left__slug", "right__slug").first()
    busiest = Page.objects.order_by("-id").values_list("slug", flat=True).first()
    cases: list[tuple[str, Callable[[], nx.MultiDiGraph[str]], Callable[[nx.MultiDiGraph[str]], Drawing], str]] = []

    def contrast_case(slugs: list[str]) -> None:
        refs = [SubjectRef(s) for s in slugs]
        cases.append((f"contrast {' vs '.join(slugs)}", lambda: contrast_graph(refs),
                      lambda g: draw(g, priority=contrast_priority(g, refs), emphasis=[r.node for r in refs], label_contrasts=True),
                      reverse("wiki:contrast-multi") + "?works=" + ",".join(slugs)))

    def local_case(center: str, depth: int) -> None:
        kind, key = center.split(":", 1)
        cases.append((f"local {center} depth {depth}", lambda: local_graph(center, depth=depth),
                      lambda g: draw(g, priority=distance_priority(g, center), center=center),
                      reverse("wiki:graph-local", kwargs={"kind": kind, "key": key}) + f"?depth={depth}"))

    contrast_case(["skillforge", "starharness"])
    contrast_case(["skillforge", "starharness", "recuris", "facet", "shepherd", "agentic-esopt", "astar", "lbyl", "cua", "prime-rl"])
    if generated:
        contrast_case(list(generated))
    for center in ("source:skillforge", "page:agentic-rl", "mechanism:policy_gradient", f"page:{busiest}"):
        for depth in (1, 2):
            local_case(center, depth)
    cases.append(("map (all works)", lambda: map_graph()[0], lambda g: draw(g, positions="map", limit=len(g)),
                  reverse("wiki:graph-map")))
    cases.append(("map (policy gradient)", lambda: map_graph(mechanism="policy_gradient")[0],
                  lambda g: draw(g, positions="map", limit=len(g)), reverse("wiki:graph-map") + "?mechanism=policy_gradient"))

    client = Client()
    header = (f"{'graph':48} {'nodes':>6} {'drawn':>6} {'build ms':>9} {'layout ms':>9} {'svg ms':>7} {'queries':>7} "
              f"{'view ms':>8} {'cold ms':>8} {'view q':>6}")
    print(header)
    print("-" * len(header))
    for label, build, lay_out, url in cases:
        build_ms, queries, built = measure(build)
        graph: nx.MultiDiGraph[str] = built  # type: ignore[assignment]
        layout_ms, _, laid_out = measure(partial(lay_out, graph))
        drawing: Drawing = laid_out  # type: ignore[assignment]
        svg_ms, _, _ = measure(partial(render_svg, drawing))
        view_ms, view_queries, response = measure(partial(client.get, url))
        assert response.status_code == 200, (url, response.status_code)  # type: ignore[attr-defined]
        cold_ms = cold(url, client)
        print(f"{label[:48]:48} {len(graph):>6} {len(drawing.nodes):>6} {build_ms:>9.1f} {layout_ms:>9.1f} "
              f"{svg_ms:>7.1f} {queries:>7} {view_ms:>8.1f} {cold_ms:>8.1f} {view_queries:>6}")
    for label, url in (("compare 3 works", reverse("wiki:compare") + "?works=facet,skillforge,shepherd"),
                       ("compare CSV", reverse("wiki:compare") + "?works=facet,skillforge,shepherd&format=csv")):
        view_ms, view_queries, _ = measure(partial(client.get, url))
        print(f"{label:48} {'':>6} {'':>6} {'':>9} {'':>9} {'':>7} {'':>7} {view_ms:>8.1f} {cold(url, client):>8.1f} {view_queries:>6}")


if __name__ == "__main__":
    main()
