"""Positions and shapes for drawing a graph as inline SVG, computed on the server.

Small graphs use a seeded spring layout, so the same graph is always drawn the same way; the
map pins each mechanism on a circle and lets its works settle around it, which groups works by
mechanism and leaves contrast edges visible between the groups.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx

from classifier.taxonomy import Mechanism, Verdict
from wiki.graph.nodes import EDGE_LABELS, KIND_LABELS, EdgeType

MAX_NODES = 50
WIDTH, HEIGHT, MARGIN = 960, 640, 70
LABEL_CHARS = 20


@dataclass(frozen=True)
class DrawnNode:
    id: str
    kind: str
    label: str
    short_label: str
    url: str
    mechanism: str
    verdict: str
    x: float
    y: float
    shape: str
    size: float
    points: str = ""
    is_center: bool = False

    @property
    def css(self) -> str:
        classes = [f"node kind-{self.kind}", f"shape-{self.shape}"] + (["center"] if self.is_center else [])
        if self.mechanism:
            classes.append(f"mech-{self.mechanism}")
        if self.verdict:
            classes.append(f"verdict-{self.verdict}")
        return " ".join(classes)

    @property
    def kind_label(self) -> str:
        return KIND_LABELS.get(self.kind, self.kind)

    @property
    def mechanism_label(self) -> str:
        return Mechanism(self.mechanism).label if self.mechanism else ""

    @property
    def verdict_label(self) -> str:
        return Verdict(self.verdict).label if self.verdict in {v.value for v in Verdict} else ""

    @property
    def label_y(self) -> float:
        return round(self.y + self.size + 13, 1)


@dataclass(frozen=True)
class DrawnEdge:
    source: DrawnNode
    target: DrawnNode
    type: str
    label: str

    @property
    def type_label(self) -> str:
        return EDGE_LABELS[EdgeType(self.type)]

    @property
    def title(self) -> str:
        detail = f" ({self.label})" if self.label else ""
        return f"{self.source.label} — {self.type_label}{detail} → {self.target.label}"


@dataclass
class Drawing:
    """A graph ready for the SVG template: nodes, edges, view box, and how many nodes were left out."""

    nodes: list[DrawnNode] = field(default_factory=list)
    edges: list[DrawnEdge] = field(default_factory=list)
    hidden: int = 0
    width: int = WIDTH
    height: int = HEIGHT

    @property
    def view_box(self) -> str:
        return f"0 0 {self.width} {self.height}"

    @property
    def edge_types(self) -> list[str]:
        return sorted({e.type for e in self.edges})


VERDICT_SHAPES = {
    Verdict.STRICT.value: "circle",
    Verdict.STRICT_NARROW.value: "hexagon",
    Verdict.ADJACENT.value: "diamond",
    Verdict.NOT_STRICT.value: "square",
}
KIND_SHAPES = {"page": "page", "claim": "dot", "mechanism": "ring", "question": "triangle"}
SIZES = {"mechanism": 22.0, "source": 11.0, "component": 11.0, "page": 10.0, "question": 9.0, "claim": 5.0}


def shorten(text: str, limit: int = LABEL_CHARS) -> str:
    """Cuts a label by display width: a CJK character counts as two Latin ones."""
    width = 0
    for i, ch in enumerate(text):
        width += 2 if ord(ch) > 0x2E80 else 1
        if width > limit:
            return text[:i].rstrip() + "…"
    return text


def _shape(kind: str, verdict: str) -> str:
    if kind in {"source", "component"}:
        return VERDICT_SHAPES.get(verdict, "open")
    return KIND_SHAPES.get(kind, "dot")


def _points(shape: str, x: float, y: float, r: float) -> str:
    if shape == "diamond":
        corners = [(x, y - r * 1.25), (x + r * 1.25, y), (x, y + r * 1.25), (x - r * 1.25, y)]
    elif shape == "hexagon":
        corners = [(x + r * 1.1 * math.cos(a), y + r * 1.1 * math.sin(a)) for a in (math.pi / 3 * k for k in range(6))]
    elif shape == "triangle":
        corners = [(x, y - r * 1.2), (x + r * 1.1, y + r * 0.8), (x - r * 1.1, y + r * 0.8)]
    elif shape in {"square", "page"}:
        h = r * 0.9
        corners = [(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)]
    else:
        return ""
    return " ".join(f"{px:.1f},{py:.1f}" for px, py in corners)


def map_positions(graph: nx.MultiDiGraph) -> dict[str, tuple[float, float]]:
    """Mechanism hubs pinned on a circle; every work starts near its hub and settles there."""
    hubs = [n for n in graph if graph.nodes[n]["kind"] == "mechanism"]
    order = {m.value: i for i, m in enumerate(Mechanism)}
    hubs.sort(key=lambda n: order.get(graph.nodes[n]["mechanism"], 99))
    pos: dict[str, tuple[float, float]] = {}
    for i, hub in enumerate(hubs):
        angle = 2 * math.pi * i / max(1, len(hubs))
        pos[hub] = (math.cos(angle), math.sin(angle)) if len(hubs) > 1 else (0.0, 0.0)
    for j, n in enumerate(sorted(graph)):
        if n in pos:
            continue
        hub = f"mechanism:{graph.nodes[n]['mechanism']}"
        hx, hy = pos.get(hub, (0.0, 0.0))
        angle = j * 2.4
        pos[n] = (hx * 0.8 + 0.2 * math.cos(angle), hy * 0.8 + 0.2 * math.sin(angle))
    if len(graph) <= 1:
        return pos
    return nx.spring_layout(graph.to_undirected(as_view=True), pos=pos, fixed=hubs or None, seed=7, k=0.22, iterations=60)


def draw(graph: nx.MultiDiGraph, *, priority: Sequence[str] | None = None, limit: int = MAX_NODES,
         positions: str = "spring", width: int = WIDTH, height: int = HEIGHT, center: str | None = None,
         emphasis: Sequence[str] = ()) -> Drawing:
    """Cuts the graph to ``limit`` nodes (in ``priority`` order), lays it out and scales it to the view box."""
    order = list(priority) if priority is not None else sorted(graph)
    keep = order[:limit]
    hidden = len(graph) - len(keep)
    sub = graph.subgraph(keep)
    if not len(sub):
        return Drawing(hidden=hidden, width=width, height=height)
    if positions == "map":
        pos = map_positions(sub)
    elif len(sub) == 1:
        pos = {keep[0]: (0.0, 0.0)}
    else:
        pos = nx.spring_layout(sub.to_undirected(as_view=True), seed=11, k=1.6 / math.sqrt(len(sub)), iterations=80)
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    span_x, span_y = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0
    nodes: dict[str, DrawnNode] = {}
    for n in keep:
        data = sub.nodes[n]
        x = MARGIN + (pos[n][0] - min(xs)) / span_x * (width - 2 * MARGIN) if len(sub) > 1 else width / 2
        y = MARGIN + (pos[n][1] - min(ys)) / span_y * (height - 2 * MARGIN) if len(sub) > 1 else height / 2
        shape = _shape(data["kind"], data["verdict"])
        size = SIZES.get(data["kind"], 8.0)
        nodes[n] = DrawnNode(
            id=n, kind=data["kind"], label=data["label"], short_label=shorten(data["label"]), url=data["url"],
            mechanism=data["mechanism"], verdict=data["verdict"], x=round(x, 1), y=round(y, 1), shape=shape, size=size,
            points=_points(shape, x, y, size), is_center=n == center or n in emphasis,
        )
    edges = [DrawnEdge(nodes[u], nodes[v], d["type"], d["label"]) for u, v, d in sub.edges(data=True)]
    # contrast edges last, so that they are drawn over the faint classification spokes
    edges.sort(key=lambda e: (e.type == EdgeType.CONTRASTS.value, e.type))
    ordered = sorted(nodes.values(), key=lambda d: (d.kind != "mechanism", d.kind == "claim"))
    return Drawing(nodes=ordered, edges=edges, hidden=hidden, width=width, height=height)
