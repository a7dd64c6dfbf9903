"""A hub's name is written whole, and every node's name but a claim's on the side of its node where the picture's lines
do not run under it."""

from __future__ import annotations

import dataclasses
import itertools

import networkx as nx
import numpy as np
import pytest
from django.utils import translation

from wiki.graph import SubjectRef, map_graph
from wiki.graph.context import contrast_picture
from wiki.graph.labels import FONT_PX, LINE_PX, text_px
from wiki.graph.layout import HUB_FONT_PX, PAD, Drawing, Frame, PlacedNode, draw
from wiki.graph.nodes import EdgeType, GraphBuilder
from wiki.graph.routing import curve_points

pytestmark = pytest.mark.django_db


def _label_box(p: PlacedNode) -> tuple[float, float, float, float]:
    """The label's text as drawn: centred on its x, a font size above its first baseline to the foot of its lines."""
    font = HUB_FONT_PX if p.node.kind == "mechanism" else FONT_PX
    half = max(text_px(line, font) for line in p.lines) / 2
    top = p.label_y - FONT_PX
    return p.label_x - half, top, p.label_x + half, top + LINE_PX * len(p.lines)


def _lines_under(frame: Frame, p: PlacedNode) -> list[str]:
    """The lines of ``frame`` that run under the label of ``p`` as drawn (a curve followed a unit at a time)."""
    x0, y0, x1, y1 = _label_box(p)
    under = []
    for placed in frame.edges:
        if placed.cx is None or placed.cy is None:
            ends = np.array([(placed.x1, placed.y1), (placed.x2, placed.y2)])
        else:
            ends = curve_points(placed.x1, placed.y1, placed.cx, placed.cy, placed.x2, placed.y2)
        points = np.concatenate([np.linspace(a, b, max(2, int(np.hypot(*(b - a))) + 1)) for a, b in itertools.pairwise(ends)])
        if ((x0 < points[:, 0]) & (points[:, 0] < x1) & (y0 < points[:, 1]) & (points[:, 1] < y1)).any():
            under.append(f"{placed.edge.source.label} – {placed.edge.target.label}")
    return under


def _hubs(frame: Frame) -> list[PlacedNode]:
    return [p for p in frame.nodes if p.node.kind == "mechanism"]


def _two_hubs() -> nx.MultiDiGraph[str]:
    """Two mechanisms of three works each: the map draws one hub at the top and one at the bottom, each with its works
    fanned out away from the middle, so that the bottom hub's spokes run down where its name is written by default."""
    builder = GraphBuilder()
    for mechanism in ("policy_gradient", "harness"):
        hub = builder.mechanism(mechanism)
        for i in range(3):
            work = builder.source(f"{mechanism}-{i}", f"{mechanism} work {i}", mechanism=mechanism, verdict="strict")
            builder.edge(work, hub, EdgeType.CLASSIFIED_AS)
    return builder.graph


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_hubs_name_is_written_where_no_line_runs_under_it_when_such_a_side_is_free(language: str) -> None:
    with translation.override(language):
        drawing = draw(_two_hubs(), positions="map")
    for frame in drawing.frames:
        hubs = _hubs(frame)
        assert len(hubs) == 2
        # written below the bottom hub, its name would lie over the spokes to its works: the check is not vacuous
        assert any(_lines_under(frame, dataclasses.replace(p, label_dx=0.0, label_dy=0.0)) for p in hubs), frame.name
        for p in hubs:
            assert _lines_under(frame, p) == [], (frame.name, p.node.label)
            # inside the picture, so that the name is never cut off
            x0, y0, x1, y1 = _label_box(p)
            assert frame.x0 <= x0 and x1 <= frame.x0 + frame.width and frame.y0 <= y0 and y1 <= frame.y0 + frame.height


def _seed_map(language: str) -> Drawing:
    """The seed wiki's whole map, drawn in ``language``."""
    with translation.override(language):
        graph, _ = map_graph()
        return draw(graph, positions="map", limit=len(graph))


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_fewer_of_the_seed_maps_lines_run_under_its_hubs_names(seed: None, language: str) -> None:
    drawing = _seed_map(language)
    for frame in drawing.frames:
        hubs = _hubs(frame)
        under = {p.node.label: len(_lines_under(frame, p)) for p in hubs}
        below = {p.node.label: len(_lines_under(frame, dataclasses.replace(p, label_dx=0.0, label_dy=0.0))) for p in hubs}
        # "Harness / scaffold" written below its hub lay over the spokes to its works and a contrast line
        assert sum(under.values()) < sum(below.values()), frame.name
        assert all(under[name] <= below[name] for name in under), (frame.name, under, below)


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_no_word_of_a_hubs_name_is_cut_in_either_frame_of_the_seed_map(seed: None, language: str) -> None:
    # "Infrastructure", one word wider than a phone's label, was drawn "Infrastructu…"
    drawing = _seed_map(language)
    for frame in drawing.frames:
        hubs = _hubs(frame)
        assert len(hubs) >= 6
        assert [p.lines for p in hubs if p.abbreviated] == [], frame.name


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_on_a_phone_a_hubs_name_moved_beside_its_node_does_not_widen_the_seed_map(seed: None, language: str) -> None:
    # "参数空间进化策略" written right of its hub made the phone's picture 408 units wide instead of 298: the reader
    # scrolled sideways to read it
    drawing = _seed_map(language)
    frame = next(f for f in drawing.frames if f.name == "narrow")
    assert any(p.label_dx for p in _hubs(frame)), "no hub's name was moved beside its node: the check would be vacuous"
    below = [dataclasses.replace(p, label_dx=0.0, label_dy=0.0) if p.node.kind == "mechanism" else p for p in frame.nodes]
    boxes = [p.label_box() for p in below] + [
        (p.x - p.node.size, p.y - p.node.size, p.x + p.node.size, p.y + p.node.size) for p in below]
    widest = max(b[2] for b in boxes) - min(b[0] for b in boxes) + 2 * PAD
    assert frame.width <= widest + PAD, (frame.width, widest)  # the frame keeps a margin of its own


def _named(frame: Frame) -> list[PlacedNode]:
    """The nodes of ``frame`` other than hubs and claims: works, components, pages and questions."""
    return [p for p in frame.nodes if p.node.kind in {"source", "component", "page", "question"}]


def _seed_pictures(language: str) -> list[tuple[str, Frame]]:
    """Both frames of the seed map and of the seed contrast of ten works, drawn in ``language``."""
    with translation.override(language):
        ten = "skillforge,starharness,recuris,facet,shepherd,agentic-esopt,astar,lbyl,cua,prime-rl".split(",")
        contrast = contrast_picture([SubjectRef.parse(w) for w in ten]).drawing
    return [(f"{name} {f.name}", f) for name, drawing in (("map", _seed_map(language)), ("contrast", contrast))
            for f in drawing.frames]


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_fewer_lines_run_under_the_names_of_the_seed_pictures_works(seed: None, language: str) -> None:
    pictures = _seed_pictures(language)
    total = [0, 0]
    for name, frame in pictures:
        under = {p.node.label: len(_lines_under(frame, p)) for p in _named(frame)}
        below = {p.node.label: len(_lines_under(frame, dataclasses.replace(p, label_dx=0.0, label_dy=0.0)))
                 for p in _named(frame)}
        assert sum(under.values()) < sum(below.values()), name
        assert all(under[label] <= below[label] for label in under), (name, under, below)
        total = [total[0] + sum(under.values()), total[1] + sum(below.values())]
    # a third fewer over the four frames (183 lines ran under the names written below their nodes in either language)
    assert total[0] * 3 <= total[1] * 2, total
    # SkillForge's five lines left it downwards, through its name written below it on the map
    frame = dict(pictures)["map wide"]
    skillforge = next(p for p in frame.nodes if p.node.label == "SkillForge")
    assert [line for line in _lines_under(frame, skillforge) if "SkillForge" in line.split(" – ")] == []


def _gap(box: tuple[float, float, float, float], p: PlacedNode) -> float:
    """How far ``box`` is from the square round the shape of ``p``."""
    r = p.node.size * 1.25
    dx = max(p.x - r - box[2], 0.0, box[0] - p.x - r)
    dy = max(p.y - r - box[3], 0.0, box[1] - p.y - r)
    return float(np.hypot(dx, dy))


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_works_name_moved_beside_it_names_no_other_node_nor_widens_the_picture(seed: None, language: str) -> None:
    moved = 0
    for name, frame in _seed_pictures(language):
        below = [dataclasses.replace(p, label_dx=0.0, label_dy=0.0) if p.node.kind != "mechanism" else p
                 for p in frame.nodes]
        for p in _named(frame):
            if not (p.label_dx or p.label_dy):
                continue
            moved += 1
            box = p.label_box()
            # nearer its own node than any other by some way: on the Agentic RL page, "Reward Placebo Trial" moved to a
            # corner of its node stood right above WMRL's, WMRL's own name written beside it
            assert min(_gap(box, q) for q in frame.nodes if q is not p) >= _gap(box, p) + 12, (name, p.node.label)
            # inside the sides the picture had with every work's name under its node
            left = min(min(q.label_box()[0], q.x - q.node.size) for q in below) - PAD
            right = max(max(q.label_box()[2], q.x + q.node.size) for q in below) + PAD
            assert left <= box[0] and box[2] <= right, (name, p.node.label)
    assert moved >= 10  # the check is not vacuous
