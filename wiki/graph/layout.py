"""Positions, labels and shapes for drawing a graph as inline SVG, computed on the server.

Every drawing is laid out twice from the same starting positions: wide, for a desktop card, and
narrow, for phones and tablets. Each frame is sized so that, shown no smaller than ``MIN_SCALE``
of its units, its 12-unit labels read at 11 CSS px or more. Each node is placed with its label as
one box, in priority order, at its starting position or the nearest free spot on a spiral around
it, so no two labels (or a label and a node) overlap. A contrast's axis is placed as soon as both
its ends are, on or right beside the middle of its line; when there is no room that near, the line
gets a numbered marker that the key under the picture spells out, never a label far away. A marker,
like a label, covers nothing placed: it sits on its line near the middle or, once every node is
placed, farther along it or in the nearest free spot beside it, tied to the line by a thin leader
(``wiki.graph.markers``). The view box is then fitted to what was placed, so no label is cut and the
picture fills its card. The whole is a pure function of the graph.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

import networkx as nx
import numpy as np
from django.urls import reverse
from django.utils.translation import get_language, gettext, ngettext, pgettext

from classifier.mechanisms import RECORD_BY_KEY
from classifier.taxonomy import Mechanism, Verdict
from wiki.graph.label_sides import clearest_side, lines_under
from wiki.graph.labels import FONT_PX, LINE_PX, text_px, told_apart, without_name, wrap
from wiki.graph.markers import beside
from wiki.graph.nodes import EDGE_LABELS, KIND_LABELS, EdgeType, content_key, subject_ref
from wiki.graph.routing import curve_points, routes
from wiki.taxonomy import mechanism_colour, mechanism_label, verdict_label
from wiki.text.lists import joined

MAX_NODES = 50
OMITTED_LISTED = 100
# A wide frame of about 1000 units fits the column of a desktop page at 11px labels or more; a narrow
# one of about 360 units fits a 375px phone the same way (graph.css shows it below 900px).
WIDTH, HEIGHT = 780, 600
NARROW_WIDTH = 200
# The smallest frame a drawing is shown in (width, height): a phone's frame is as wide as it is laid out in.
MIN_FRAME = (480.0, 160.0)
# Drawings of fewer nodes than this are spread over less than the whole frame (see _spread).
FULL_SPREAD = 25
LABEL_PX = {"wide": 150.0, "narrow": 108.0}
# A picture is never drawn smaller than this many CSS px per unit (its viewport scrolls instead), so that
# a 12-unit label is at least 11px; nor larger than MAX_SCALE, so that a small drawing is not blown up.
MIN_SCALE = 11 / 12
MAX_SCALE = 1.25
# How near a contrast's axis is written to the middle of its line: the label's box comes within this
# many units of it, or the line gets a numbered marker instead.
AXIS_REACH = 24.0
MARKER_R = 8.0
GAP = 5.0
PAD = 8.0
# hub labels are drawn bold at 13px: measured as a wider regular font
HUB_FONT_PX = 14.3
# old name kept for callers that cut text themselves
LABEL_CHARS = 20


Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class DrawnNode:
    id: str
    kind: str
    label: str
    url: str
    mechanism: str
    verdict: str
    shape: str
    size: float
    is_center: bool = False
    wanted: bool = False
    parts: bool = False
    short: str = ""  # the label drawn, when not the whole of it (a claim without the name of the work at the centre)

    @property
    def css(self) -> str:
        classes = [f"node kind-{self.kind}", f"shape-{self.shape}"] + (["center"] if self.is_center else [])
        if self.colour:
            classes.append(f"has-mechanism mech-{self.mechanism}")
        if self.verdict:
            classes.append(f"verdict-{self.verdict}")
        if self.wanted:
            classes.append("wanted")
        return " ".join(classes)

    @property
    def colour(self) -> str:
        """The mechanism's colour from its record, which the stylesheet reads as ``--mech``."""
        return mechanism_colour(self.mechanism) if self.mechanism else ""

    @property
    def kind_label(self) -> str:
        if self.wanted:
            return gettext("Wanted page")
        if self.parts and not self.verdict:
            return gettext("Work classified per component")
        if self.kind in {"source", "component"} and not self.verdict:
            return gettext("Unclassified work") if self.kind == "source" else gettext("Unclassified component")
        return str(KIND_LABELS.get(self.kind, self.kind))

    @property
    def mechanism_label(self) -> str:
        return mechanism_label(self.mechanism) if self.mechanism else ""

    @property
    def names(self) -> list[str]:
        """What the graph's finder knows the node by, whatever the interface's language: its label, and a mechanism's
        name in both languages (its record holds them), the reader's first."""
        names = [self.label]
        if self.kind == "mechanism" and self.mechanism in RECORD_BY_KEY:
            names += [RECORD_BY_KEY[self.mechanism].label_en, RECORD_BY_KEY[self.mechanism].label_zh]
        return list(dict.fromkeys(name for name in names if name.strip()))

    @property
    def verdict_label(self) -> str:
        return verdict_label(self.verdict) if self.verdict in {v.value for v in Verdict} else ""

    @property
    def title(self) -> str:
        extra = ""
        if self.mechanism_label and self.kind != "mechanism":
            extra = " — " + joined(label for label in (self.mechanism_label, self.verdict_label) if label)
        # "工作：SkillForge — 策略梯度、严格 Agentic RL": each language's own colon and list separator.
        return gettext("%(kind)s: %(name)s") % {"kind": self.kind_label, "name": self.label} + extra


@dataclass(frozen=True)
class DrawnEdge:
    source: DrawnNode
    target: DrawnNode
    type: str
    label: str
    claims: tuple[tuple[str, str], ...] = ()

    @property
    def url(self) -> str:
        """A contrast's page, where its two works (or components) are set side by side; empty for other lines."""
        if self.type != EdgeType.CONTRASTS.value:
            return ""
        return reverse("wiki:contrast", args=[subject_ref(self.source.id), subject_ref(self.target.id)])

    @property
    def type_label(self) -> str:
        return str(EDGE_LABELS[EdgeType(self.type)])

    @property
    def title(self) -> str:
        detail = f"{pgettext('opening bracket', ' (')}{self.label}{pgettext('closing bracket', ')')}" if self.label else ""
        said = pgettext("clause separator", "; ") + ngettext("%(count)s claim", "%(count)s claims", len(self.claims)) % {"count": len(self.claims)} if self.claims else ""
        return f"{self.source.label} — {self.type_label}{detail} → {self.target.label}{said}"


@dataclass(frozen=True)
class PlacedNode:
    node: DrawnNode
    x: float
    y: float
    lines: tuple[str, ...]
    points: str = ""

    @property
    def abbreviated(self) -> bool:
        return " ".join(self.lines) != " ".join(self.node.label.split())

    # where the label is written from below its node (it may go to another side, see _clear_labels)
    label_dx: float = 0.0
    label_dy: float = 0.0

    @property
    def label_x(self) -> float:
        return round(self.x + self.label_dx, 1)

    @property
    def label_y(self) -> float:
        return round(self.y + self.node.size + FONT_PX + 1 + self.label_dy, 1)

    def label_box(self) -> Box:
        """The box of the label's text, its lines' ink from the top of the first to the foot of the last's height."""
        font = HUB_FONT_PX if self.node.kind == "mechanism" else FONT_PX
        half = max((text_px(line, font) for line in self.lines), default=0.0) / 2 + 2
        top = self.label_y - FONT_PX
        return (self.label_x - half, top, self.label_x + half, top + LINE_PX * len(self.lines))


@dataclass(frozen=True)
class PlacedEdge:
    """A line from (x1, y1) to (x2, y2): straight, or curved through control point (cx, cy) around other nodes."""

    edge: DrawnEdge
    x1: float
    y1: float
    x2: float
    y2: float
    cx: float | None = None
    cy: float | None = None

    @property
    def path(self) -> str:
        """The SVG path data of the line."""
        if self.cx is None or self.cy is None:
            return f"M{self.x1} {self.y1} L{self.x2} {self.y2}"
        return f"M{self.x1} {self.y1} Q{self.cx} {self.cy} {self.x2} {self.y2}"


@dataclass(frozen=True)
class PlacedAxis:
    """What a contrast line sets against what, written beside the line (``y`` is the first line's baseline),
    or, with a ``marker`` number, a numbered disc centred at ``x``, ``y`` that the key spells out: on the line, or
    beside it at the end of a leader drawn from ``leader_from``, the nearest point of the line."""

    edge: DrawnEdge
    x: float
    y: float
    lines: tuple[str, ...]
    marker: int = 0
    # the middle of the contrast line the axis belongs to
    mid_x: float = 0.0
    mid_y: float = 0.0
    # where the leader of a marker drawn beside its line leaves the line; None for a marker on it
    leader_from: tuple[float, float] | None = None
    # a marker whose leader passes through a node, under part of a label or across another contrast's line, or whose
    # disc sits on one: nowhere clearer was free
    tangled: bool = False

    @property
    def text(self) -> str:
        return " ".join(self.lines)


@dataclass
class Frame:
    """One way of drawing: ``wide`` for desktops, ``narrow`` for phones."""

    name: str
    nodes: list[PlacedNode] = field(default_factory=list)
    edges: list[PlacedEdge] = field(default_factory=list)
    axes: list[PlacedAxis] = field(default_factory=list)
    x0: float = 0.0
    y0: float = 0.0
    width: float = WIDTH
    height: float = HEIGHT

    @property
    def view_box(self) -> str:
        return f"{self.x0:.0f} {self.y0:.0f} {self.width:.0f} {self.height:.0f}"

    @property
    def min_px(self) -> int:
        """The narrowest the picture is drawn, in CSS px: its labels stay at 11px or more."""
        return math.ceil(round(self.width) * MIN_SCALE)

    @property
    def max_px(self) -> int:
        return math.ceil(round(self.width) * MAX_SCALE)

    @property
    def markers(self) -> list[PlacedAxis]:
        """The axes drawn as numbered markers, for the key under the picture."""
        return [a for a in self.axes if a.marker]


@dataclass
class Drawing:
    """A graph ready for the SVG template: its nodes and edges, their frames, and what was left out."""

    nodes: list[DrawnNode] = field(default_factory=list)
    edges: list[DrawnEdge] = field(default_factory=list)
    hidden: int = 0
    left_out: dict[str, int] = field(default_factory=dict)
    frames: list[Frame] = field(default_factory=list)
    omitted: list[DrawnNode] = field(default_factory=list)

    @property
    def edge_types(self) -> list[str]:
        return sorted({e.type for e in self.edges})

    @property
    def wide(self) -> Frame:
        return self.frames[0] if self.frames else Frame("wide")

    @property
    def width(self) -> float:
        return self.wide.width

    @property
    def height(self) -> float:
        return self.wide.height

    @property
    def left_out_text(self) -> str:
        return gettext(", ").join(_count_of(kind, n) for kind, n in self.left_out.items())


# What a drawing leaves out is counted by these words; left_out_text says them in the reader's language.
LEFT_OUT_KINDS = {"page": "page", "source": "work", "component": "component of a work", "claim": "claim",
                  "mechanism": "mechanism", "question": "open question"}


def _count_of(kind: str, n: int) -> str:
    """"3 claims" in the active language."""
    counts = {
        "claim": ngettext("%(count)s claim", "%(count)s claims", n),
        "page": ngettext("%(count)s page", "%(count)s pages", n),
        "work": ngettext("%(count)s work", "%(count)s works", n),
        "component of a work": ngettext("%(count)s component", "%(count)s components", n),
        "open question": ngettext("%(count)s open question", "%(count)s open questions", n),
        "mechanism": ngettext("%(count)s mechanism", "%(count)s mechanisms", n),
        "wanted page": ngettext("%(count)s wanted page", "%(count)s wanted pages", n),
    }
    return counts.get(kind, f"%(count)s {kind}") % {"count": n}


VERDICT_SHAPES = {
    Verdict.STRICT.value: "circle",
    Verdict.STRICT_NARROW.value: "hexagon",
    Verdict.ADJACENT.value: "diamond",
    Verdict.NOT_STRICT.value: "square",
}
KIND_SHAPES = {"page": "page", "claim": "dot", "mechanism": "ring", "question": "triangle"}
SIZES = {"mechanism": 16.0, "source": 10.0, "component": 10.0, "page": 9.0, "question": 9.0, "claim": 5.0}


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


# --- starting positions, each in [-1, 1] × [-1, 1] ---

def _normalise(pos: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    if len(pos) <= 1:
        return dict.fromkeys(pos, (0.0, 0.0))
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    mx, my = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    sx, sy = (max(xs) - min(xs)) / 2 or 1.0, (max(ys) - min(ys)) / 2 or 1.0
    return {n: ((x - mx) / sx, (y - my) / sy) for n, (x, y) in pos.items()}


# The springs' starting points: a picture whose contrast lines run side by side or could not all carry their axes is
# tried again from the next ones, and the try that crowds its lines and labels least is drawn.
SPRING_SEEDS = (11, 1, 2, 3)


def spring_positions(graph: nx.MultiDiGraph[str], seed: int = SPRING_SEEDS[0]) -> dict[str, tuple[float, float]]:
    if len(graph) <= 1:
        return dict.fromkeys(graph, (0.0, 0.0))
    # The springs see the graph as a plain one whose weights count the edges between two nodes, either way: the
    # same matrix networkx derives from an undirected view of the multigraph, at a fraction of the cost (reading
    # a view of a subgraph view walks every edge through two filters).
    plain: nx.Graph[str] = nx.Graph()
    # in one order whatever the rows' order and ids, so the layout is too
    names: list[str] = sorted(graph, key=lambda n: content_key(graph, n))
    plain.add_nodes_from(names)
    for u, v in graph.edges():
        if plain.has_edge(u, v):
            plain[u][v]["weight"] += 1
        else:
            plain.add_edge(u, v, weight=1)
    pos = nx.spring_layout(plain, seed=seed, k=1.6 / math.sqrt(len(graph)), iterations=50)
    return _normalise({n: (float(p[0]), float(p[1])) for n, p in pos.items()})


_MECH_ORDER = {m.value: i for i, m in enumerate(Mechanism)}


def _work_order(graph: nx.MultiDiGraph[str], n: str) -> tuple[int, str, str]:
    data = graph.nodes[n]
    return _MECH_ORDER.get(data["mechanism"], 99), data["verdict"], data["label"].lower()


def map_positions(graph: nx.MultiDiGraph[str]) -> dict[str, tuple[float, float]]:
    """Mechanism hubs on an ellipse; each work on a small circle around its hub, unclassified works in the middle."""
    hubs = sorted((n for n in graph if graph.nodes[n]["kind"] == "mechanism"), key=lambda n: _MECH_ORDER.get(graph.nodes[n]["mechanism"], 99))
    pos: dict[str, tuple[float, float]] = {}
    for i, hub in enumerate(hubs):
        angle = 2 * math.pi * i / max(1, len(hubs)) - math.pi / 2
        pos[hub] = (math.cos(angle) * 0.78, math.sin(angle) * 0.78) if len(hubs) > 1 else (0.0, 0.0)
    groups: dict[str, list[str]] = {}
    for n in graph:
        if n not in pos:
            groups.setdefault(f"mechanism:{graph.nodes[n]['mechanism']}", []).append(n)
    for hub, members in groups.items():
        members.sort(key=lambda n: _work_order(graph, n))
        hx, hy = pos.get(hub, (0.0, 0.0))
        radius = 0.12 + 0.02 * len(members)
        # works fan out away from the centre of the picture, so neighbouring groups do not meet
        base = math.atan2(hy, hx) if (hx or hy) else 0.0
        spread = math.pi * 1.3 if (hx or hy) else 2 * math.pi
        for j, n in enumerate(members):
            a = base - spread / 2 + spread * (j + 0.5) / len(members)
            pos[n] = (hx + radius * math.cos(a), hy + radius * math.sin(a))
    return _normalise(pos)


def radial_positions(graph: nx.MultiDiGraph[str], center: str) -> dict[str, tuple[float, float]]:
    """The centre in the middle, works on a ring around it by mechanism, everything else on an outer ring."""
    works = sorted((n for n in graph if n != center and graph.nodes[n]["kind"] in {"source", "component"}),
                   key=lambda n: _work_order(graph, n))
    others = sorted((n for n in graph if n != center and n not in set(works)),
                    key=lambda n: (graph.nodes[n]["kind"], graph.nodes[n].get("wanted", ""), graph.nodes[n]["label"].lower()))
    pos: dict[str, tuple[float, float]] = {center: (0.0, 0.0)} if center in graph else {}
    for ring, radius in ((works, 0.5), (others, 1.0)):
        for i, n in enumerate(ring):
            a = 2 * math.pi * (i + 0.5) / len(ring) - math.pi / 2
            pos[n] = (radius * math.cos(a), radius * math.sin(a))
    return pos


# --- placement ---


def _label_lines(node: DrawnNode, frame: str) -> tuple[str, ...]:  # wrap() is cached
    if node.kind != "mechanism":
        return wrap(node.short or node.label, LABEL_PX[frame], max_lines=2)
    # A hub's name is a term the legend and the glossary use: a word of it is never cut in a phone's frame
    # ("Infrastructu…"), its line as wide as the word up to the wide frame's width; few hubs are drawn.
    text = node.short or node.label
    width = max([LABEL_PX[frame]] + [min(LABEL_PX["wide"], text_px(word, HUB_FONT_PX)) for word in text.split()])
    return wrap(text, width, max_lines=2, font_px=HUB_FONT_PX)


def _claim_labels(graph: nx.MultiDiGraph[str], nodes: dict[str, DrawnNode], center: str | None) -> None:
    """Shortens the labels of the claims drawn so that they tell each other apart: around a work (or component), none
    opens with its name (each is about it), and claims that would still read alike start where they differ."""
    names: list[str] = []
    if center is not None and center in graph and graph.nodes[center]["kind"] in {"source", "component"}:
        names.append(graph.nodes[center]["label"])
        names += [graph.nodes[v]["label"] for _, v, key in graph.out_edges(center, keys=True)
                  if key == EdgeType.COMPONENT_OF.value]
    claims = {n: without_name(node.label, names) for n, node in nodes.items() if node.kind == "claim"}
    for n, text in told_apart(claims, lambda text: wrap(text, LABEL_PX["narrow"], max_lines=2)).items():
        if text != nodes[n].label:
            nodes[n] = replace(nodes[n], short=text)


def _extent(node: DrawnNode, lines: tuple[str, ...]) -> tuple[float, float, float, float]:
    """The box of a node and its label below it, relative to the node's centre."""
    r = node.size * 1.3
    font = HUB_FONT_PX if node.kind == "mechanism" else FONT_PX
    half = max([r] + [text_px(line, font) / 2 + 2 for line in lines])
    return -half, -r, half, node.size + 4 + LINE_PX * len(lines)


# candidates are tried a ring-batch at a time: most nodes find room among the first few hundred
_BATCHES = ((0, 1), (1, 160), (160, 1200), (1200, None))


def _first_free(spiral: np.ndarray, x: float, y: float, extent: tuple[float, float, float, float], placed: np.ndarray) -> int:
    """The index of the first spiral offset at which the node's box overlaps nothing placed; -1 if there is none."""
    if not len(placed):
        return 0
    ex0, ey0, ex1, ey1 = extent
    a0, b0, a1, b1 = (placed[:, i][None, :] for i in range(4))
    for start, stop in _BATCHES:
        offsets = spiral[start:stop]
        if not len(offsets):
            break
        cx = x + offsets[:, 0:1]
        cy = y + offsets[:, 1:2]
        hit = (cx + ex0 < a1 + GAP) & (a0 < cx + ex1 + GAP) & (cy + ey0 < b1 + GAP) & (b0 < cy + ey1 + GAP)
        free = np.flatnonzero(~hit.any(axis=1))
        if free.size:
            return start + int(free[0])
    return -1


def _spiral(narrow: bool) -> list[tuple[float, float]]:
    steps = [(0.0, 0.0)]
    for ring in range(1, 90):
        radius = ring * 9.0
        count = 8 + ring * 2
        for k in range(count):
            a = 2 * math.pi * k / count + ring * 0.7
            dx, dy = radius * math.cos(a), radius * math.sin(a)
            steps.append((dx * 0.35, dy * 1.3) if narrow else (dx * 1.2, dy * 0.8))
    return steps


_SPIRALS = {False: np.array(_spiral(False)), True: np.array(_spiral(True))}


_CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")


def axis_text(axis: str) -> str:
    """An axis written in both languages ("策略更新 vs … / policy update vs …") in the reader's; any other whole."""
    parts = [part.strip() for part in axis.split(" / ")]
    if len(parts) == 2 and all(parts) and bool(_CJK.search(parts[0])) != bool(_CJK.search(parts[1])):
        chinese, english = parts if _CJK.search(parts[0]) else parts[::-1]
        return chinese if (get_language() or "").startswith("zh") else english
    return axis


# The room an axis label keeps clear around its text: two units each side, one above and below its lines.
_AXIS_PAD_X, _AXIS_PAD_Y = 2.0, 1.0


def _axis_extent(lines: tuple[str, ...]) -> tuple[float, float, float, float]:
    half = max(text_px(line) for line in lines) / 2 + _AXIS_PAD_X
    tall = LINE_PX * len(lines) / 2 + _AXIS_PAD_Y
    return -half, -tall, half, tall


# Where an axis label may go, as offsets of its centre from the middle of its line: a fine grid, nearest first.
_GRID = np.array(sorted(((float(dx), float(dy)) for dx in range(-160, 161, 4) for dy in range(-64, 65, 4)),
                        key=lambda o: (math.hypot(o[0], o[1] * 1.5), o)))


def _axis_offsets(extent: tuple[float, float, float, float]) -> np.ndarray:
    """The offsets of ``_GRID`` at which the text of a label of ``extent`` comes within AXIS_REACH of the line's
    middle: its lines' ink, from the top of the first (a font size above its baseline) to the foot of the last line's
    height, not the room kept clear around it."""
    ex0, ey0, ex1, ey1 = extent
    ex0, ex1 = ex0 + _AXIS_PAD_X, ex1 - _AXIS_PAD_X
    ey1 -= 2 * _AXIS_PAD_Y
    gx, gy = _GRID[:, 0], _GRID[:, 1]
    # distance from the middle (the origin) to the nearest point of the box, per axis
    out_x = np.maximum(gx + ex0, 0.0) + np.maximum(-(gx + ex1), 0.0)
    out_y = np.maximum(gy + ey0, 0.0) + np.maximum(-(gy + ey1), 0.0)
    near: np.ndarray = _GRID[np.hypot(out_x, out_y) <= AXIS_REACH]
    return near


def _marker_offsets(dx: float, dy: float) -> np.ndarray:
    """Points on a line of direction (dx, dy) within AXIS_REACH of its middle, the middle first."""
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    steps = [0.0] + [s * k for k in range(2, int(min(AXIS_REACH, length / 2)) + 1, 2) for s in (1, -1)]
    return np.array([(ux * t, uy * t) for t in steps])


class _Placer:
    """Boxes placed so far in one frame, and the search for a free spot near a point."""

    def __init__(self, size: int) -> None:
        self.boxes = np.zeros((max(size, 1), 4))
        self.count = 0

    def free(self, offsets: np.ndarray, x: float, y: float, extent: tuple[float, float, float, float]) -> int:
        return _first_free(offsets, x, y, extent, self.boxes[: self.count])

    def add(self, box: Box) -> None:
        self.boxes[self.count] = box
        self.count += 1

    def bottom(self) -> float:
        return float(self.boxes[: self.count, 3].max()) if self.count else 0.0


def _place_axis(placer: _Placer, edge: DrawnEdge, ends: tuple[PlacedNode, PlacedNode], frame: str,
                marker: int) -> tuple[PlacedAxis, bool]:
    """The axis of ``edge`` written on or beside the middle of its line; failing that, marker number ``marker`` on the
    line near its middle. With no room there either, the marker is left at the line's middle, unplaced (False), for
    ``_place_beside`` to place once every node is."""
    a, b = ends
    x, y = (a.x + b.x) / 2, (a.y + b.y) / 2
    lines = wrap(axis_text(edge.label), LABEL_PX[frame], max_lines=3)
    extent = _axis_extent(lines)
    offsets = _axis_offsets(extent)
    k = placer.free(offsets, x, y, extent)
    if k >= 0:
        dx, dy = float(offsets[k][0]), float(offsets[k][1])
        placer.add((x + dx + extent[0], y + dy + extent[1], x + dx + extent[2], y + dy + extent[3]))
        written = PlacedAxis(edge, round(x + dx, 1), round(y + dy + extent[1] + FONT_PX, 1), lines, 0, round(x, 1), round(y, 1))
        return written, True
    r = MARKER_R + 1
    along = _marker_offsets(b.x - a.x, b.y - a.y)
    k = placer.free(along, x, y, (-r, -r, r, r))
    if k < 0:
        return PlacedAxis(edge, round(x, 1), round(y, 1), lines, marker, round(x, 1), round(y, 1)), False
    dx, dy = float(along[k][0]), float(along[k][1])
    placer.add((x + dx - r, y + dy - r, x + dx + r, y + dy + r))
    return PlacedAxis(edge, round(x + dx, 1), round(y + dy, 1), lines, marker, round(x, 1), round(y, 1)), True


def _place_beside(placer: _Placer, axis: PlacedAxis, ends: tuple[PlacedNode, PlacedNode], nodes: np.ndarray,
                  contrasts: np.ndarray, lines: np.ndarray, narrow: bool) -> PlacedAxis:
    """A marker whose line had no room for it near its middle, once every node is placed: farther along the line or
    beside it, tied to it by a leader, covering nothing placed (see ``wiki.graph.markers``), its leader through none of
    the ``nodes``' shapes, and off the picture's other ``contrasts`` and other ``lines`` if it can be."""
    a, b = ends
    r = MARKER_R + 1
    spot = beside((a.x, a.y), (b.x, b.y), r=r, gap=GAP, boxes=placer.boxes[: placer.count], nodes=nodes,
                  contrasts=contrasts, lines=lines, spiral=_SPIRALS[narrow])
    placer.add((spot.x - r, spot.y - r, spot.x + r, spot.y + r))
    x, y, foot = round(spot.x, 1), round(spot.y, 1), (round(spot.foot_x, 1), round(spot.foot_y, 1))
    return replace(axis, x=x, y=y, leader_from=None if foot == (x, y) else foot, tangled=spot.tangled)


def _place(nodes: list[DrawnNode], start: dict[str, tuple[float, float]], frame: str, width: float, height: float,
           axes: Sequence[DrawnEdge] = (), spread: float = 1.0, links: Sequence[DrawnEdge] = ()) -> Frame:
    """Nodes with their labels in order, each contrast's axis as soon as both its ends are placed, and last the markers
    that had no room on their lines, beside them and off the picture's other ``links`` where they can be; none
    overlapping."""
    narrow = frame == "narrow"
    placer = _Placer(len(nodes) + len(axes))
    out: list[PlacedNode] = []
    at: dict[str, PlacedNode] = {}
    spiral = _SPIRALS[narrow]
    by_end: dict[str, list[DrawnEdge]] = {}
    for edge in axes:
        by_end.setdefault(edge.source.id, []).append(edge)
        by_end.setdefault(edge.target.id, []).append(edge)
    placed_axes: list[PlacedAxis] = []
    unplaced: list[int] = []
    for node in nodes:
        sx, sy = start.get(node.id, (0.0, 0.0))
        x, y = sx * spread * width / 2, sy * spread * height / 2
        lines = _label_lines(node, frame)
        ex0, ey0, ex1, ey1 = _extent(node, lines)
        k = placer.free(spiral, x, y, (ex0, ey0, ex1, ey1))
        if k >= 0:
            dx, dy = float(spiral[k][0]), float(spiral[k][1])
        else:  # nowhere near: below everything placed so far
            dx, dy = 0.0, placer.bottom() + GAP - (y + ey0)
        placer.add((x + dx + ex0, y + dy + ey0, x + dx + ex1, y + dy + ey1))
        px, py = round(x + dx, 1), round(y + dy, 1)
        placed = PlacedNode(node, px, py, lines, _points(node.shape, px, py, node.size))
        out.append(placed)
        at[node.id] = placed
        # An axis goes in before the nodes of lower priority, so that it gets the room beside its own line.
        for edge in by_end.get(node.id, ()):
            ends = at.get(edge.source.id), at.get(edge.target.id)
            if ends[0] is not None and ends[1] is not None:
                marker = 1 + sum(1 for a in placed_axes if a.marker)
                axis, fits = _place_axis(placer, edge, (ends[0], ends[1]), frame, marker)
                unplaced += [] if fits else [len(placed_axes)]
                placed_axes.append(axis)
    if unplaced:
        drawn = [e for e in links if e.source.id in at and e.target.id in at]
        segments = np.array([(at[e.source.id].x, at[e.source.id].y, at[e.target.id].x, at[e.target.id].y)
                             for e in drawn]).reshape(-1, 4)
        contrast = np.array([e.type == EdgeType.CONTRASTS.value for e in drawn], dtype=bool)
        # each node's shape (a diamond's corners reach 1.25 times its size) and a line's clearance round it
        reach = [p.node.size * 1.25 + 1 for p in out]
        shapes = np.array([(p.x - h, p.y - h, p.x + h, p.y + h) for p, h in zip(out, reach, strict=True)]).reshape(-1, 4)
        for i in unplaced:
            axis = placed_axes[i]
            others = np.array([e is not axis.edge for e in drawn], dtype=bool)
            placed_axes[i] = _place_beside(placer, axis, (at[axis.edge.source.id], at[axis.edge.target.id]),
                                           shapes, segments[others & contrast], segments[others & ~contrast], narrow)
    if not placer.count:
        return Frame(frame, width=width, height=height)
    boxes = placer.boxes[: placer.count]
    x0, y0 = float(boxes[:, 0].min()) - PAD, float(boxes[:, 1].min()) - PAD
    x1, y1 = float(boxes[:, 2].max()) + PAD, float(boxes[:, 3].max()) + PAD
    # A drawing of a few nodes (a work with nothing around it yet) is framed in at least MIN_FRAME, centred, so
    # that fitting it to the page does not blow its labels up to headline size.
    w, h = max(x1 - x0, min(width, MIN_FRAME[0])), max(y1 - y0, MIN_FRAME[1])
    x0, y0 = (x0 + x1 - w) / 2, (y0 + y1 - h) / 2
    # markers are numbered in the order the key lists them
    placed_axes.sort(key=lambda a: (a.marker == 0, a.marker))
    return Frame(frame, out, [], placed_axes, round(x0, 1), round(y0, 1), round(w, 1), round(h, 1))


def _frame_edges(frame: Frame, edges: list[DrawnEdge]) -> None:
    """Each edge as a line between its ends, bent around the nodes it would pass over; a contrast whose axis is
    written beside it stays straight, beside its axis."""
    at = {p.node.id: p for p in frame.nodes}
    index = {n: i for i, n in enumerate(at)}
    discs = np.array([(p.x, p.y, p.node.size) for p in at.values()]).reshape(-1, 3)
    lines = np.array([(at[e.source.id].x, at[e.source.id].y, at[e.target.id].x, at[e.target.id].y) for e in edges]).reshape(-1, 4)
    ends = np.array([(index[e.source.id], index[e.target.id]) for e in edges], dtype=int).reshape(-1, 2)
    with_axis = {id(a.edge) for a in frame.axes}
    controls = routes(lines, ends, discs, (frame.x0, frame.y0, frame.x0 + frame.width, frame.y0 + frame.height),
                      np.array([id(e) in with_axis for e in edges], dtype=bool))
    frame.edges = [PlacedEdge(e, *(float(v) for v in line), *(control or (None, None)))
                   for e, line, control in zip(edges, lines, controls, strict=True)]
    _clear_labels(frame)
    # hubs first, then works, claims last: the later drawn sit on top
    rank = {"mechanism": 0, "page": 1, "question": 1, "source": 2, "component": 2, "claim": 3}
    frame.nodes.sort(key=lambda p: (rank.get(p.node.kind, 2), p.node.is_center))


# The nodes whose name may be written on another side of them than below; a claim's, two lines of its sentence, stays
# under its dot, leaving the free spots to the names of works and hubs.
MOVABLE_LABELS = frozenset({"mechanism", "source", "component", "page", "question"})
# How much farther than from its own node (a few units) a name moved beside it keeps from every other node.
NAME_APART = 16.0


def _clear_labels(frame: Frame) -> None:
    """Each node's label (but a claim's) moved above, right or left of its node where fewer of the lines drawn run
    under it and the spot is free (``wiki.graph.label_sides``), the hubs' first; the view box grows to hold them."""
    pieces = [curve_points(e.x1, e.y1, e.cx, e.cy, e.x2, e.y2) if e.cx is not None and e.cy is not None
              else np.array([(e.x1, e.y1), (e.x2, e.y2)]) for e in frame.edges]
    segments = np.concatenate([np.hstack([points[:-1], points[1:]]) for points in pieces] or [np.zeros((0, 4))])
    owners = np.array([i for i, points in enumerate(pieces) for _ in range(len(points) - 1)], dtype=int)
    axes = [(a.x - MARKER_R, a.y - MARKER_R, a.x + MARKER_R, a.y + MARKER_R) if a.marker else
            (a.x - max(text_px(line) for line in a.lines) / 2, a.y - FONT_PX,
             a.x + max(text_px(line) for line in a.lines) / 2, a.y - FONT_PX + LINE_PX * len(a.lines))
            for a in frame.axes]
    # A phone's picture is as wide as the screen: a label moved beside its node stays within the picture's sides, where
    # one that widened it would make the reader scroll sideways to read it. A desktop's picture is fitted to its column,
    # so a wider one draws every label smaller: it may grow for a hub's name only.
    walls = [(frame.x0 - 1e6, -1e9, frame.x0, 1e9), (frame.x0 + frame.width, -1e9, frame.x0 + frame.width + 1e6, 1e9)]
    labels = np.array([p.label_box() for p in frame.nodes]).reshape(-1, 4)
    centres = np.array([(p.x, p.y, p.node.size * 1.3) for p in frame.nodes]).reshape(-1, 3)
    fixed = np.array(axes).reshape(-1, 4)
    # a hub's name first: a term the legend uses, at a node many lines meet
    for i in sorted(range(len(frame.nodes)), key=lambda i: frame.nodes[i].node.kind != "mechanism"):
        p = frame.nodes[i]
        if p.node.kind not in MOVABLE_LABELS or not p.lines or not lines_under(labels[i], segments, owners):
            continue
        hub = p.node.kind == "mechanism"
        s, tall = p.node.size, LINE_PX * len(p.lines)
        half = (p.label_box()[2] - p.label_box()[0]) / 2
        # below (as placed), above, right, left of the node, a few units clear of its shape, then its four corners
        offsets = [(0.0, 0.0), (0.0, -2 * s - 4 - tall), (s + 4 + half, -tall / 2 - s - 1), (-s - 4 - half, -tall / 2 - s - 1),
                   (s + half, 0.0), (-s - half, 0.0), (s + half, -2 * s - 4 - tall), (-s - half, -2 * s - 4 - tall)]
        sides = [replace(p, label_dx=dx, label_dy=dy) for dx, dy in offsets]
        # a name beside its node keeps farther from every other node than from its own, so that it names no other
        r = centres[:, 2:] + (0.0 if hub else NAME_APART)
        shapes = np.hstack([centres[:, :2] - r, centres[:, :2] + r])
        others = np.delete(np.vstack([labels, shapes]), [i, len(labels) + i], axis=0)
        kept = np.array(walls if frame.name == "narrow" or not hub else []).reshape(-1, 4)
        k = clearest_side(np.array([side.label_box() for side in sides]), np.vstack([others, fixed, kept]),
                          segments, owners)
        frame.nodes[i] = sides[k]
        labels[i] = sides[k].label_box()
    boxes = [p.label_box() for p in frame.nodes]
    x0 = min([frame.x0] + [b[0] - PAD for b in boxes])
    y0 = min([frame.y0] + [b[1] - PAD for b in boxes])
    x1 = max([frame.x0 + frame.width] + [b[2] + PAD for b in boxes])
    y1 = max([frame.y0 + frame.height] + [b[3] + PAD for b in boxes])
    frame.x0, frame.y0, frame.width, frame.height = round(x0, 1), round(y0, 1), round(x1 - x0, 1), round(y1 - y0, 1)


def _drawn(n: str, data: dict[str, str], *, is_center: bool = False) -> DrawnNode:
    parts = bool(data.get("parts")) and not data["verdict"]
    shape = "parts" if parts else _shape(data["kind"], data["verdict"])
    return DrawnNode(id=n, kind=data["kind"], label=data["label"], url=data["url"], mechanism=data["mechanism"],
                     verdict=data["verdict"], shape=shape, size=SIZES.get(data["kind"], 8.0), is_center=is_center,
                     wanted=bool(data.get("wanted")), parts=parts)


def _spread(n: int) -> float:
    """How much of the frame ``n`` nodes are spread over: all of it from FULL_SPREAD nodes on, less for fewer, so
    that two nodes are drawn a line's length apart rather than in opposite corners of an empty picture."""
    return min(1.0, math.sqrt(n / FULL_SPREAD))


# Two contrast lines leaving one node closer than this many degrees apart run side by side, their axes between both.
SIDE_BY_SIDE_DEGREES = 10.0


def _side_by_side(frame: Frame) -> int:
    """How many pairs of the contrast lines of ``frame`` that carry an axis leave one node so nearly the same way
    that neither line can be told from the other, nor which axis is whose."""
    at = {p.node.id: p for p in frame.nodes}
    bearings: dict[str, list[float]] = {}
    for a in frame.axes:
        ends = (at[a.edge.source.id], at[a.edge.target.id])
        for here, there in (ends, ends[::-1]):
            bearings.setdefault(here.node.id, []).append(math.atan2(there.y - here.y, there.x - here.x))
    close = 0
    for angles in bearings.values():
        for i, first in enumerate(angles):
            for second in angles[i + 1:]:
                apart = abs(math.degrees(first - second)) % 360
                close += min(apart, 360 - apart) < SIDE_BY_SIDE_DEGREES
    return close


def _crowding(frames: list[Frame]) -> tuple[int, int, int, int]:
    """How far a try falls short: its contrast lines running side by side from one node, then its axes numbered
    rather than written, then its markers tangled with other labels and lines, then its markers drawn beside their
    lines rather than on them."""
    markers = [a for f in frames for a in f.markers]
    return (sum(_side_by_side(f) for f in frames), len(markers), sum(a.tangled for a in markers),
            sum(a.leader_from is not None for a in markers))


def drawn_nodes(graph: nx.MultiDiGraph[str], priority: Sequence[str] | None = None, limit: int = MAX_NODES) -> list[str]:
    """The nodes :func:`draw` keeps of ``graph`` (in ``priority`` order, else by content), the first ``limit``: the same
    ones in the picture and in the graph's files, which mark the rest as left out of it."""
    order = list(priority) if priority is not None else sorted(graph, key=lambda n: content_key(graph, n))
    return [n for n in order if n in graph][:limit]


def draw(graph: nx.MultiDiGraph[str], *, priority: Sequence[str] | None = None, limit: int = MAX_NODES,
         positions: str = "spring", width: int = WIDTH, height: int = HEIGHT, center: str | None = None,
         emphasis: Sequence[str] = (), label_contrasts: bool = False) -> Drawing:
    """Cuts the graph to ``limit`` nodes (in ``priority`` order), lays it out wide and narrow, and places the labels;
    with ``label_contrasts``, each contrast line is labelled with its axis as well."""
    order = list(priority) if priority is not None else sorted(graph, key=lambda n: content_key(graph, n))
    keep = drawn_nodes(graph, order, limit)
    kept = set(keep)
    left_out: Counter[str] = Counter()
    for n, data in graph.nodes(data=True):
        if n not in kept:
            kind = "wanted page" if data.get("wanted") else LEFT_OUT_KINDS.get(data["kind"], data["kind"])
            left_out[kind] += 1
    hidden = len(graph) - len(keep)
    sub = graph.subgraph(keep)
    if not len(sub):
        return Drawing(hidden=hidden, left_out=dict(left_out))
    nodes = {n: _drawn(n, sub.nodes[n], is_center=n == center or n in emphasis) for n in keep}
    _claim_labels(graph, nodes, center)
    rest = [n for n in order if n in graph and n not in kept][:OMITTED_LISTED]
    omitted = [_drawn(n, graph.nodes[n]) for n in rest]
    edges = [DrawnEdge(nodes[u], nodes[v], d["type"], d["label"], tuple(d.get("claims", ())))
             for u, v, d in sub.edges(data=True)]
    # contrast edges last, so that they are drawn over the faint classification spokes
    edges.sort(key=lambda e: (e.type == EdgeType.CONTRASTS.value, e.type))
    ordered = [nodes[n] for n in keep]
    narrow_height = max(520.0, 26.0 * len(ordered))
    axes = [e for e in edges if e.type == EdgeType.CONTRASTS.value and e.label] if label_contrasts else []
    # The map keeps its whole frame, and so does a drawing whose contrast lines carry their axes (room to write them).
    spread = 1.0 if positions == "map" or axes else _spread(len(ordered))
    starts: Iterable[dict[str, tuple[float, float]]]
    if positions == "map":
        starts = [map_positions(sub)]
    elif positions == "radial" and center is not None and center in sub:
        starts = [radial_positions(sub, center)]
    else:  # laid out again only while two contrast lines run side by side or an axis is numbered
        starts = (spring_positions(sub, seed) for seed in (SPRING_SEEDS if axes else SPRING_SEEDS[:1]))
    frames: list[Frame] = []
    for start in starts:
        tried = [_place(ordered, start, "wide", width, height, axes, spread, edges),
                 _place(ordered, start, "narrow", NARROW_WIDTH, narrow_height, axes, spread, edges)]
        if not frames or _crowding(tried) < _crowding(frames):
            frames = tried
        if not any(_crowding(frames)):
            break
    for frame in frames:
        _frame_edges(frame, edges)
    return Drawing(nodes=ordered, edges=edges, hidden=hidden, left_out=dict(left_out), frames=frames, omitted=omitted)
