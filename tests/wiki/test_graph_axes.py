"""Contrast axes written by their own lines (or numbered on them), pictures sized for readable labels, and the layout's cost."""

from __future__ import annotations

import itertools
import math
import re

import networkx as nx
import numpy as np
import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from tests.factories import ContrastWiki
from wiki.graph import SubjectRef, map_graph
from wiki.graph.compare import comparison_for
from wiki.graph.context import contrast_picture
from wiki.graph.labels import FONT_PX, LINE_PX, text_px
from wiki.graph.layout import (
    AXIS_REACH,
    GAP,
    HUB_FONT_PX,
    MARKER_R,
    MIN_SCALE,
    Drawing,
    Frame,
    PlacedAxis,
    draw,
    spring_positions,
)
from wiki.graph.markers import beside
from wiki.graph.nodes import EdgeType, GraphBuilder
from wiki.graph.routing import curve_points
from wiki.graph.svg import frame_svg
from wiki.models import Contrast

pytestmark = pytest.mark.django_db

# The seed contrast of ten works the graph review opened, and every pair the seed wiki contrasts.
TEN_WORKS = "skillforge,starharness,recuris,facet,shepherd,agentic-esopt,astar,lbyl,cua,prime-rl"


def _distance_to_box(x: float, y: float, box: tuple[float, float, float, float]) -> float:
    dx = max(box[0] - x, 0.0, x - box[2])
    dy = max(box[1] - y, 0.0, y - box[3])
    return math.hypot(dx, dy)


def _misplaced_axes(frame: Frame) -> list[tuple[str, float]]:
    """Every axis of ``frame`` written farther than AXIS_REACH from the middle of its own line, or numbered off it,
    with how far it is."""
    at = {p.node.id: p for p in frame.nodes}
    far = []
    for a in frame.axes:
        left, right = at[a.edge.source.id], at[a.edge.target.id]
        mx, my = (left.x + right.x) / 2, (left.y + right.y) / 2
        if a.marker:
            # a numbered disc sits on the line itself, or its leader leaves the line, between its ends
            fx, fy = a.leader_from or (a.x, a.y)
            ux, uy = right.x - left.x, right.y - left.y
            length = math.hypot(ux, uy) or 1.0
            off_line = abs(ux * (fy - left.y) - uy * (fx - left.x)) / length
            along = (ux * (fx - left.x) + uy * (fy - left.y)) / length
            # positions are rounded to a tenth of a unit
            if max(off_line, -along, along - length) > 0.2:
                far.append((a.text, round(max(off_line, -along, along - length), 1)))
            continue
        half = max(text_px(line) for line in a.lines) / 2
        box = (a.x - half, a.y - 12, a.x + half, a.y - 12 + 15 * len(a.lines))
        distance = _distance_to_box(mx, my, box)
        # positions are rounded to a tenth of a unit
        if distance > AXIS_REACH + 0.5:
            far.append((a.text, round(distance, 1)))
    return far


def _subject_sets() -> list[list[str]]:
    pairs = Contrast.objects.filter(left_component=None, right_component=None).values_list("left__slug", "right__slug")
    return [TEN_WORKS.split(","), *([left, right] for left, right in pairs)]


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_every_axis_of_the_seed_contrasts_is_on_or_beside_its_own_line_in_both_frames(seed: None, language: str) -> None:
    subject_sets = _subject_sets()
    assert len(subject_sets) >= 6
    with translation.override(language):
        for works in subject_sets:
            drawing = contrast_picture([SubjectRef.parse(w) for w in works]).drawing
            contrasts = {(e.source.id, e.target.id) for e in drawing.edges if e.type == "contrasts"}
            for frame in drawing.frames:
                # every contrast line has its axis, written or numbered
                assert {(a.edge.source.id, a.edge.target.id) for a in frame.axes} == contrasts, (works, frame.name)
                assert _misplaced_axes(frame) == [], (works, frame.name)
                # the key numbers the markers 1, 2, 3… in the order it lists them
                assert [a.marker for a in frame.markers] == list(range(1, len(frame.markers) + 1))


def _covered_by_markers(frame: Frame) -> list[tuple[int, str]]:
    """What the numbered markers of ``frame`` (the square round each disc) cover of the labels, nodes and other markers
    drawn: the estimate of each text's width the layout makes, the shape of each node, from the frame's own values."""
    boxes: list[tuple[str, tuple[float, float, float, float]]] = []
    for p in frame.nodes:
        font = HUB_FONT_PX if p.node.kind == "mechanism" else FONT_PX
        half = max(text_px(line, font) for line in p.lines) / 2
        top = p.label_y - FONT_PX
        boxes.append((p.node.label, (p.label_x - half, top, p.label_x + half, top + LINE_PX * len(p.lines))))
        r = p.node.size * 1.25  # a diamond's corners reach out that far
        boxes.append((f"node {p.node.label}", (p.x - r, p.y - r, p.x + r, p.y + r)))
    for a in frame.axes:
        if a.marker:
            boxes.append((f"marker {a.marker}", (a.x - MARKER_R, a.y - MARKER_R, a.x + MARKER_R, a.y + MARKER_R)))
        else:
            half = max(text_px(line) for line in a.lines) / 2
            boxes.append((a.text, (a.x - half, a.y - FONT_PX, a.x + half, a.y - FONT_PX + LINE_PX * len(a.lines))))
    covered = []
    for a in frame.markers:
        disc = (a.x - MARKER_R, a.y - MARKER_R, a.x + MARKER_R, a.y + MARKER_R)
        for name, box in boxes:
            if name != f"marker {a.marker}" and disc[0] < box[2] and box[0] < disc[2] and disc[1] < box[3] and box[1] < disc[3]:
                covered.append((a.marker, name))
    return covered


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_no_marker_of_the_seed_contrasts_covers_a_label_a_node_or_another_marker(seed: None, language: str) -> None:
    numbered = 0
    with translation.override(language):
        for works in _subject_sets():
            refs = [SubjectRef.parse(w) for w in works]
            # as the tests above draw them, and as the contrast page does, in the order of its comparison's columns
            for drawn in (refs, [column.ref for column in comparison_for(refs).columns]):
                drawing = contrast_picture(drawn).drawing
                for frame in drawing.frames:
                    numbered += len(frame.markers)
                    assert _covered_by_markers(frame) == [], (works, frame.name)
    # the ten works' picture numbers some of its axes in each language: the check is not vacuous
    assert numbered


def _side(a: tuple[float, float], b: tuple[float, float], p: tuple[float, float]) -> int:
    turn = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    return (turn > 0) - (turn < 0)


def _leaders_across_contrasts(frame: Frame) -> list[tuple[int, str]]:
    """Each numbered marker of ``frame`` whose leader crosses another contrast's line as drawn (a curve followed
    point by point), with that line's ends."""
    crossed = []
    for a in frame.markers:
        if a.leader_from is None:
            continue
        foot, disc = a.leader_from, (a.x, a.y)
        for placed in frame.edges:
            # another contrast between the same two works is drawn along the leader's own line
            same = {placed.edge.source.id, placed.edge.target.id} == {a.edge.source.id, a.edge.target.id}
            if placed.edge.type != EdgeType.CONTRASTS.value or same:
                continue
            if placed.cx is None or placed.cy is None:
                points = [(placed.x1, placed.y1), (placed.x2, placed.y2)]
            else:
                points = [tuple(p) for p in curve_points(placed.x1, placed.y1, placed.cx, placed.cy, placed.x2, placed.y2).tolist()]
            for p, q in itertools.pairwise(points):
                if _side(foot, disc, p) * _side(foot, disc, q) < 0 and _side(p, q, foot) * _side(p, q, disc) < 0:
                    crossed.append((a.marker, f"{placed.edge.source.label} – {placed.edge.target.label}"))
                    break
    return crossed


def _leaders_from_nodes(frame: Frame) -> list[tuple[int, str]]:
    """Each numbered marker of ``frame`` whose leader leaves its line inside the shape of a node at one of its ends
    (or the dot at its foot touches it), where it would seem to leave the node rather than the line."""
    at = {p.node.id: p for p in frame.nodes}
    inside = []
    for a in frame.markers:
        if a.leader_from is None:
            continue
        for end in (at[a.edge.source.id], at[a.edge.target.id]):
            # a diamond's corners reach out 1.25 times a node's size; the foot's dot is 2.5 units across
            if math.hypot(a.leader_from[0] - end.x, a.leader_from[1] - end.y) < end.node.size * 1.25 + 2.5:
                inside.append((a.marker, end.node.label))
    return inside


def _leaders_through_nodes(frame: Frame) -> list[tuple[int, str]]:
    """Each numbered marker of ``frame`` whose leader passes through the shape of a node (the square a diamond's
    corners reach, 1.25 times its size), with that node: even one at an end of its line, which it would seem to leave
    from, since it leaves the line clear of them."""
    through = []
    for a in frame.markers:
        if a.leader_from is None:
            continue
        fx, fy = a.leader_from
        steps = max(int(math.hypot(a.x - fx, a.y - fy)), 1)
        walked = [(fx + (a.x - fx) * k / steps, fy + (a.y - fy) * k / steps) for k in range(steps + 1)]
        for p in frame.nodes:
            r = p.node.size * 1.25
            if any(abs(x - p.x) < r and abs(y - p.y) < r for x, y in walked):
                through.append((a.marker, p.node.label))
    return through


def _shallow_leader_crossings(frame: Frame) -> list[tuple[int, str, int]]:
    """Each numbered marker of ``frame`` whose leader crosses another contrast's line at less than 45 degrees, where
    it could be taken for a branch of that line, with the line's ends and the angle."""
    at = {f"{placed.edge.source.label} – {placed.edge.target.label}": placed for placed in frame.edges}
    shallow = []
    for marker, line in _leaders_across_contrasts(frame):
        a, placed = frame.markers[marker - 1], at[line]
        fx, fy = a.leader_from or (a.x, a.y)
        ux, uy, vx, vy = a.x - fx, a.y - fy, placed.x2 - placed.x1, placed.y2 - placed.y1
        angle = math.degrees(math.asin(min(1.0, abs(ux * vy - uy * vx) / (math.hypot(ux, uy) * math.hypot(vx, vy)))))
        if angle < 45:
            shallow.append((marker, line, round(angle)))
    return shallow


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_every_leader_of_the_seed_contrasts_leaves_its_line_between_its_nodes_and_crosses_no_other_contrast(
    seed: None, language: str
) -> None:
    leaders = 0
    with translation.override(language):
        for works in _subject_sets():
            refs = [SubjectRef.parse(w) for w in works]
            for drawn in (refs, [column.ref for column in comparison_for(refs).columns]):
                for frame in contrast_picture(drawn).drawing.frames:
                    leaders += sum(a.leader_from is not None for a in frame.markers)
                    assert _leaders_across_contrasts(frame) == [], (works, frame.name)
                    assert _leaders_from_nodes(frame) == [], (works, frame.name)
                    # marker 1 of the English ten works' picture ran through Recuris's square to reach its disc
                    assert _leaders_through_nodes(frame) == [], (works, frame.name)
    # the ten works' picture ties some of its markers to their lines by leaders: the check is not vacuous
    assert leaders


def _contrasts_side_by_side(frame: Frame) -> list[tuple[str, str, str]]:
    """Each pair of contrast lines of ``frame`` leaving one node less than 10 degrees apart, as drawn: the node and the
    two other ends."""
    leaving: dict[str, list[tuple[str, float]]] = {}
    for placed in frame.edges:
        if placed.edge.type != EdgeType.CONTRASTS.value:
            continue
        ends = ((placed.edge.source, placed.x1, placed.y1), (placed.edge.target, placed.x2, placed.y2))
        for (here, hx, hy), (there, tx, ty) in (ends, ends[::-1]):
            leaving.setdefault(here.label, []).append((there.label, math.degrees(math.atan2(ty - hy, tx - hx))))
    close = []
    for node, lines in leaving.items():
        for (one, a), (other, b) in itertools.combinations(lines, 2):
            if min(abs(a - b) % 360, 360 - abs(a - b) % 360) < 10:
                close.append((node, one, other))
    return close


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_no_two_contrast_lines_of_the_seed_contrasts_leave_a_work_side_by_side(seed: None, language: str) -> None:
    # SkillForge's lines to Recuris and to FACET ran a few degrees apart, each axis written between both
    with translation.override(language):
        for works in _subject_sets():
            refs = [SubjectRef.parse(w) for w in works]
            for drawn in (refs, [column.ref for column in comparison_for(refs).columns]):
                for frame in contrast_picture(drawn).drawing.frames:
                    assert len([e for e in frame.edges if e.edge.type == EdgeType.CONTRASTS.value]) >= 1
                    assert _contrasts_side_by_side(frame) == [], (works, frame.name)


def test_a_marker_sits_on_its_line_though_another_contrast_of_the_same_two_works_runs_along_it() -> None:
    # two axes of the same two works are drawn along one line: the other one is no line to keep the marker off
    spot = beside((0.0, 0.0), (100.0, 0.0), r=MARKER_R + 1, gap=GAP, boxes=np.zeros((0, 4)), nodes=np.zeros((0, 4)),
                  contrasts=np.array([[100.0, 0.0, 0.0, 0.0]]), lines=np.zeros((0, 4)), spiral=np.zeros((0, 2)))
    assert (spot.x, spot.y, spot.foot_x, spot.foot_y, spot.tangled) == (50.0, 0.0, 50.0, 0.0, False)


def _crowded_contrast() -> nx.MultiDiGraph[str]:
    """Twelve works, each set against four others on a long axis, and thirty claims each about two of them: more axes
    than their lines have room for."""
    builder = GraphBuilder()
    works = [builder.source(f"work-{i}", f"Work number {i}", mechanism="policy_gradient", verdict="strict") for i in range(12)]
    for i, work in enumerate(works):
        for step in (1, 3, 4, 6):
            if i < (i + step) % 12 or step == 6:
                builder.edge(work, works[(i + step) % 12], EdgeType.CONTRASTS,
                             f"a long axis of contrast number {i}-{step} / 第 {i}-{step} 个很长的对比维度")
    for k in range(30):
        claim = builder.claim(1000 + k, f"Claim {k} says that work {k % 12} and work {(k * 5) % 12} differ", page_slug="p", anchor="")
        builder.edge(claim, works[k % 12], EdgeType.ABOUT)
        builder.edge(claim, works[(k * 5) % 12], EdgeType.ABOUT)
    return builder.graph


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_no_marker_of_a_crowded_contrast_covers_a_label_a_node_or_another_marker(language: str) -> None:
    with translation.override(language):
        drawing = draw(_crowded_contrast(), label_contrasts=True)
    for frame in drawing.frames:
        assert len(frame.markers) >= 3, frame.name
        assert _covered_by_markers(frame) == [], frame.name
        assert _misplaced_axes(frame) == [], frame.name
        assert _leaders_from_nodes(frame) == [], frame.name


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_leaders_of_a_crowded_contrast_pass_through_no_node_and_cross_other_contrasts_steeply(language: str) -> None:
    # its works sit so close that most of its lines are hemmed in by others: where no free spot needs a leader across
    # one, the leader crosses it steeply, never running along it, and never through a work
    with translation.override(language):
        drawing = draw(_crowded_contrast(), label_contrasts=True)
    crossing = 0
    for frame in drawing.frames:
        crossing += len(_leaders_across_contrasts(frame))
        assert _leaders_through_nodes(frame) == [], frame.name
        assert _shallow_leader_crossings(frame) == [], frame.name
    assert crossing  # the check is not vacuous


# every offset of a grid within 200 units, nearest first, for a marker sought round its line's middle
_GRID_SPIRAL = np.array(sorted(((float(x), float(y)) for x in range(-200, 201, 4) for y in range(-200, 201, 4)),
                               key=lambda o: (math.hypot(*o), o)))


def test_a_leader_slants_to_a_free_spot_rather_than_cross_another_contrast() -> None:
    # the only free spot lies past another contrast's line (y = 30, x 110 to 190), which a leader at right angles from
    # the nearest point of the line would cross; one from farther along the line reaches it clear of it
    blocked = np.array([[-1000.0, -1000.0, 1000.0, 45.0], [-1000.0, 45.0, 130.0, 1000.0],
                        [170.0, 45.0, 1000.0, 1000.0], [130.0, 100.0, 170.0, 1000.0]])
    other = ((110.0, 30.0), (190.0, 30.0))
    spot = beside((0.0, 0.0), (200.0, 0.0), r=MARKER_R + 1, gap=GAP, boxes=blocked, nodes=np.zeros((0, 4)),
                  contrasts=np.array([[*other[0], *other[1]]]), lines=np.zeros((0, 4)), spiral=_GRID_SPIRAL)
    foot, disc = (spot.foot_x, spot.foot_y), (spot.x, spot.y)
    assert 130 < spot.x < 170 and 45 < spot.y < 100 and spot.foot_y == 0.0
    assert not (_side(foot, disc, other[0]) * _side(foot, disc, other[1]) < 0
                and _side(*other, foot) * _side(*other, disc) < 0)


def test_a_leader_goes_round_a_node_between_its_line_and_its_marker() -> None:
    # the only free spot is right above a work (x 88 to 112, y 48 to 72): a leader at right angles to the line would
    # run through the work's square, one slanted from farther along the line passes it by
    work = np.array([[88.0, 48.0, 112.0, 72.0]])
    blocked = np.array([[-1000.0, -1000.0, 1000.0, 40.0], [-1000.0, 40.0, 85.0, 1000.0], [115.0, 40.0, 1000.0, 1000.0],
                        [85.0, 110.0, 115.0, 1000.0], *work])
    spot = beside((0.0, 0.0), (200.0, 0.0), r=MARKER_R + 1, gap=GAP, boxes=blocked, nodes=work,
                  contrasts=np.zeros((0, 4)), lines=np.zeros((0, 4)), spiral=_GRID_SPIRAL)
    assert 85 < spot.x < 115 and 72 < spot.y < 110 and spot.foot_y == 0.0
    walked = [(spot.foot_x + (spot.x - spot.foot_x) * k / 200, spot.foot_y + (spot.y - spot.foot_y) * k / 200)
              for k in range(201)]
    assert not any(88 <= x <= 112 and 48 <= y <= 72 for x, y in walked)


def test_a_marker_beside_its_line_is_drawn_with_a_leader_from_the_line() -> None:
    with translation.override("en"):
        drawing = draw(_crowded_contrast(), label_contrasts=True)
    beside = [a for frame in drawing.frames for a in frame.markers if a.leader_from]
    assert beside
    svg = "".join(frame_svg(frame, svg_id="g", title="T", first=not i) for i, frame in enumerate(drawing.frames))
    a = beside[0]
    fx, fy = a.leader_from or (0.0, 0.0)
    assert (f'<line x1="{fx}" y1="{fy}" x2="{a.x}" y2="{a.y}" class="axis-leader"/>'
            f'<circle cx="{fx}" cy="{fy}" r="2.5" class="axis-foot"/>'
            f'<circle cx="{a.x}" cy="{a.y}" r="{MARKER_R:g}"/>') in svg
    # a marker on its line has none
    assert svg.count('class="axis-leader"') == len(beside)


def test_most_axes_of_the_ten_work_contrast_are_written_not_numbered(seed: None) -> None:
    with translation.override("en"):
        drawing = contrast_picture([SubjectRef.parse(w) for w in TEN_WORKS.split(",")]).drawing
    for frame in drawing.frames:
        assert len(frame.axes) == 7
        assert len(frame.markers) <= 3, frame.name


def test_a_numbered_axis_is_spelled_out_in_a_key_under_its_frame(contrast_wiki: ContrastWiki) -> None:
    with translation.override("en"):
        drawing = contrast_picture([SubjectRef("gripforge"), SubjectRef("polarharness")]).drawing
        narrow = drawing.frames[1]
        written = narrow.axes[0]
        numbered = PlacedAxis(written.edge, written.mid_x, written.mid_y, written.lines, 1, written.mid_x, written.mid_y)
        narrow.axes = [numbered, *narrow.axes[1:]]
        html = render_to_string("wiki/graph/svg.html", {"drawing": drawing, "svg_id": "g", "svg_title": "T", "svg_desc": "D"})
    key = re.search(r'<ol class="graph-key graph-narrow"[^>]*>(.*?)</ol>', html, re.DOTALL)
    assert key is not None and 'class="graph-key graph-wide"' not in html
    item = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", key.group(1))).strip()
    assert item.startswith(f"{written.edge.source.label} – {written.edge.target.label}: ")
    assert "policy update vs external harness evolution" in item
    svg = html.split('id="g-narrow"', 1)[1].split("</svg>", 1)[0]
    marker = re.search(r'<g class="axis axis-marker" data-from="([^"]+)" data-to="([^"]+)"><circle[^>]*/><text[^>]*>1</text></g>', svg)
    assert marker is not None and marker.groups() == (written.edge.source.id, written.edge.target.id)


def test_axis_labels_name_the_ends_of_their_line_so_they_dim_with_it(client: Client, contrast_wiki: ContrastWiki) -> None:
    html = client.get(reverse("wiki:contrast", args=["gripforge", "polarharness"]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    axes = re.findall(r'<g class="axis[^"]*" data-from="[^"]+" data-to="[^"]+"><text[^>]*class="label axis-label"', html)
    assert len(axes) == html.count('class="label axis-label"') > 0


def test_a_phones_picture_is_never_drawn_so_small_that_labels_fall_under_11px_and_a_desktops_fits_its_column(
    client: Client, contrast_wiki: ContrastWiki
) -> None:
    html = client.get(reverse("wiki:contrast", args=["gripforge", "polarharness"])).content.decode()
    svgs = dict(re.findall(r'<svg class="graph" id="contrast-graph(-narrow)?"[^>]*style="([^"]*)"', html))
    narrow = re.search(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) [\d.]+"[^>]*style="min-width:(\d+)px;max-width:(\d+)px"',
                       html.split('id="contrast-graph-narrow"', 1)[1])

    assert narrow is not None
    width, min_px, max_px = narrow.groups()
    # the labels are 12 units high
    assert 12 * int(min_px) / float(width) >= 11 and int(max_px) > int(min_px)
    assert MIN_SCALE * 12 >= 11
    # the wide frame is never wider than its column (it scales down to fit), only never blown up
    assert re.fullmatch(r"max-width:\d+px", svgs[""])


def test_frames_fit_a_phone_and_a_desktop_column_at_readable_size(contrast_wiki: ContrastWiki) -> None:
    from wiki.devtools.generate import wiki_generate

    wiki_generate(works=20, claims=20, pages=2, seed=5)
    graph, _ = map_graph()
    from wiki.graph import draw

    wide, narrow = draw(graph, positions="map", limit=len(graph)).frames
    # a 375px phone shows about 341px of picture, a 1280px desktop about 890px beside the legend
    assert narrow.min_px <= 400 and wide.min_px <= 1000


def test_an_svg_frame_carries_its_size_limits() -> None:
    frame = Frame("narrow", width=360.0, height=500.0)
    svg = frame_svg(frame, svg_id="g", title="T", first=True)
    assert f'style="min-width:{math.ceil(360 * 11 / 12)}px;max-width:450px"' in svg
    assert isinstance(Drawing(frames=[frame]).wide, Frame)


def test_spring_layout_is_the_same_whatever_order_the_rows_came_in() -> None:
    edges = [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "e"), ("e", "f"), ("f", "a"), ("b", "e")]
    one: nx.MultiDiGraph[str] = nx.MultiDiGraph()
    one.add_edges_from(edges)
    other: nx.MultiDiGraph[str] = nx.MultiDiGraph()
    other.add_nodes_from(["f", "e", "d", "c", "b", "a"])
    other.add_edges_from(reversed(edges))
    assert spring_positions(one) == spring_positions(other)


def test_spring_layout_does_not_change_with_the_ids_the_rows_got() -> None:
    def graph(ids: dict[str, int]) -> nx.MultiDiGraph[str]:
        g: nx.MultiDiGraph[str] = nx.MultiDiGraph()
        for text, pk in ids.items():
            g.add_node(f"claim:{pk}", kind="claim", label=text)
        g.add_node("source:a", kind="source", label="A")
        g.add_node("source:b", kind="source", label="B")
        g.add_edges_from([(f"claim:{ids['first']}", "source:a"), (f"claim:{ids['second']}", "source:b"),
                          (f"claim:{ids['third']}", "source:a"), ("source:a", "source:b")])
        return g

    # "3" < "12" as numbers, but not as text: the rows of a second load sort the other way round
    one, other = graph({"first": 3, "second": 12, "third": 7}), graph({"first": 103, "second": 95, "third": 99})
    by_label = [{g.nodes[n]["label"]: p for n, p in spring_positions(g).items()} for g in (one, other)]
    assert by_label[0] == by_label[1]


def test_the_map_of_one_mechanism_finds_its_contrasts_without_joining_classifications_twice(contrast_wiki: ContrastWiki) -> None:
    everything, _ = map_graph()
    with CaptureQueriesContext(connection) as captured:
        graph, _ = map_graph(mechanism="policy_gradient")
    contrast_sql = [q["sql"] for q in captured.captured_queries if 'AS "left__slug"' in q["sql"]]
    assert contrast_sql and all("DISTINCT" not in sql for sql in contrast_sql)
    works = {n for n, d in graph.nodes(data=True) if d["kind"] in {"source", "component"}}
    assert works <= set(everything)
    # every work of another mechanism is there as the other side of a contrast with a policy-gradient one
    ours = {n for n in works if graph.nodes[n]["mechanism"] == "policy_gradient"}
    contrasted = {(u, v) for u, v, key in graph.edges(keys=True) if key == "contrasts"}
    assert ours and all(any(n in pair and (set(pair) - {n}) <= ours for pair in contrasted) for n in works - ours)
