"""Where a contrast's numbered marker goes when its line has no room for it near its middle.

Like a label, a marker never covers what was placed before it (labels, nodes, other markers): the picture grows
rather than hide text under a disc. It is set on its line farther from the middle, or beside the line, tied to it by
a thin leader that leaves the line clear of the nodes at its ends (where it would seem to leave a node): at right
angles to the line near it, or, round the line's middle, from the nearest point of the line or, when no such leader
is clear, slanted from farther along it, so that it can reach a spot past a line a square one would cross. Of the free spots, the first kind found
is taken: the leader through no node (it would seem to join it), neither crossing another contrast's line nor its disc
sitting on one (where it would seem to number that one), and the leader passing under no label; among those, the one
touching the fewest other lines (a leader longer than LEADER_REACH counting as one more), then the nearest the line's
middle. Farther out (a frame's spiral around the middle), the same; failing all, the spot through the fewest nodes,
then across the fewest other contrasts' lines at a shallow angle, then across the fewest at all, then on the fewest
(the far stretch of the spiral is searched for one clear of them), whose leader passes under the fewest labels.

Where works sit close together and many contrasts run between them, a line can be hemmed in on both sides by others
along its whole length, with no free spot for a disc between them: its leader must cross one. It then crosses it at
STEEP degrees or more where it can, since a leader crossing a line steeply is seen to go on past it, while one
running along it reads as a branch of that line and ties the marker to the wrong contrast; a label over a thin line
still reads. A pure function of what was placed, like the layout.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from wiki.graph.routing import CLEARANCE

# How far from either end of its line a leader leaves it: past the shape of a work drawn there (a diamond reaches
# 12.5 units out) and the dot at the leader's foot.
END_CLEARANCE = 16.0
# How long a marker's leader may be before the marker is sought farther out, and the step of the search.
LEADER_REACH = 56.0
_STEP = 4.0
_ACROSS = np.array(sorted((float(d) for d in np.arange(-LEADER_REACH, LEADER_REACH + 1, _STEP)), key=abs))
# Beyond it, the nearer stretch of a frame's spiral is searched, then, when nothing there is free, the rest of it.
_SPIRAL_NEAR = 1200
# How many free spots of each stretch are weighed, the nearest the line's middle first.
_WEIGHED = 400
# How many feet spread along its line a leader to a spot round the line's middle may also leave from.
_FEET = 9
# A leader that has to cross another contrast's line crosses it at this many degrees or more where it can.
STEEP = 45.0

Point = tuple[float, float]


@dataclass(frozen=True)
class Spot:
    """A marker's centre, where its leader leaves the line (the centre itself for a marker on it), and whether it is
    tangled: its leader passing through a node, under part of a label or across another contrast's line, or its disc on
    that line."""

    x: float
    y: float
    foot_x: float
    foot_y: float
    tangled: bool


def boxes_crossed(starts: np.ndarray, ends: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """How many of ``boxes`` (x0, y0, x1, y1) each segment from ``starts`` to ``ends`` passes through."""
    if not len(boxes):
        return np.zeros(len(starts), dtype=int)
    # the stretch of each segment (0 to 1) inside each box's slab, per axis: it meets the box where the two overlap
    lo, hi = np.zeros((len(starts), len(boxes))), np.ones((len(starts), len(boxes)))
    for axis in (0, 1):
        s, d = starts[:, axis : axis + 1], ends[:, axis : axis + 1] - starts[:, axis : axis + 1]
        b0, b1 = boxes[:, axis][None, :], boxes[:, axis + 2][None, :]
        flat = np.abs(d) < 1e-9
        safe = np.where(flat, 1.0, d)
        t0, t1 = (b0 - s) / safe, (b1 - s) / safe
        inside = (b0 <= s) & (s <= b1)
        lo = np.where(flat, np.where(inside, lo, 2.0), np.maximum(lo, np.minimum(t0, t1)))
        hi = np.where(flat, hi, np.minimum(hi, np.maximum(t0, t1)))
    counts: np.ndarray = (lo <= hi).sum(axis=1)
    return counts


def _turn(ax: np.ndarray, ay: np.ndarray, bx: np.ndarray, by: np.ndarray, px: np.ndarray, py: np.ndarray) -> np.ndarray:
    """Which side of the line from a to b each point p lies on: 1, -1, or 0 on it."""
    side: np.ndarray = np.sign((bx - ax) * (py - ay) - (by - ay) * (px - ax))
    return side


def _crossings(starts: np.ndarray, ends: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """Whether each segment from ``starts`` to ``ends`` (rows) crosses each of ``lines`` (x1, y1, x2, y2; columns)."""
    sx, sy, ex, ey = starts[:, 0:1], starts[:, 1:2], ends[:, 0:1], ends[:, 1:2]
    lx1, ly1, lx2, ly2 = (lines[:, i][None, :] for i in range(4))
    crossed: np.ndarray = (_turn(sx, sy, ex, ey, lx1, ly1) * _turn(sx, sy, ex, ey, lx2, ly2) < 0) & (
        _turn(lx1, ly1, lx2, ly2, sx, sy) * _turn(lx1, ly1, lx2, ly2, ex, ey) < 0
    )
    return crossed


def _lines_crossed(starts: np.ndarray, ends: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """How many of ``lines`` (x1, y1, x2, y2) each segment from ``starts`` to ``ends`` crosses."""
    if not len(lines) or not len(starts):
        return np.zeros(len(starts), dtype=int)
    counts: np.ndarray = _crossings(starts, ends, lines).sum(axis=1)
    return counts


def _on_lines(points: np.ndarray, lines: np.ndarray, r: float) -> np.ndarray:
    """Whether a disc of radius ``r`` at each of ``points`` comes within CLEARANCE of any of ``lines``."""
    if not len(lines) or not len(points):
        return np.zeros(len(points), dtype=bool)
    ax, ay = lines[:, 0][None, :], lines[:, 1][None, :]
    dx, dy = lines[:, 2][None, :] - ax, lines[:, 3][None, :] - ay
    px, py = points[:, 0:1], points[:, 1:2]
    t = np.clip(((px - ax) * dx + (py - ay) * dy) / np.maximum(dx * dx + dy * dy, 1e-9), 0.0, 1.0)
    near: np.ndarray = (np.hypot(px - ax - t * dx, py - ay - t * dy) < r + CLEARANCE).any(axis=1)
    return near


def _free(points: np.ndarray, r: float, boxes: np.ndarray, gap: float) -> np.ndarray:
    """Whether a square of half-side ``r`` at each of ``points`` keeps ``gap`` from every box."""
    if not len(boxes):
        return np.ones(len(points), dtype=bool)
    cx, cy = points[:, 0:1], points[:, 1:2]
    hit: np.ndarray = (
        (cx - r < boxes[:, 2][None, :] + gap)
        & (boxes[:, 0][None, :] < cx + r + gap)
        & (cy - r < boxes[:, 3][None, :] + gap)
        & (boxes[:, 1][None, :] < cy + r + gap)
    )
    free: np.ndarray = np.logical_not(hit.any(axis=1))
    return free


def _by_the_line(a: Point, b: Point) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Spots on the line from ``a`` to ``b`` clear of the nodes at its ends and at right angles to it up to
    LEADER_REACH away, the foot of each one's leader, and how far each is from the line's middle (along it counting half:
    a short leader near the middle, or none a little farther out)."""
    length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
    unit, normal = np.array([b[0] - a[0], b[1] - a[1]]) / length, np.array([a[1] - b[1], b[0] - a[0]]) / length
    half = np.arange(0.0, max(length / 2 - END_CLEARANCE, _STEP), _STEP)
    along = np.concatenate([half, -half[1:]])
    t, d = (grid.ravel() for grid in np.meshgrid(along, _ACROSS))
    middle = (np.array(a) + np.array(b)) / 2
    feet = middle + t[:, None] * unit
    points = feet + d[:, None] * normal
    return points, feet[:, None, :], np.abs(d) + np.abs(t) / 2


def _round_the_middle(a: Point, b: Point, spiral: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Spots at ``spiral``'s offsets from the middle of the line from ``a`` to ``b``, the feet their leaders may leave
    the line from (the nearest point of the line clear of the nodes at its ends, so that a leader never seems to leave
    a node, then points spread along that clear stretch: a slanted leader can reach a spot past a line that a square
    one would cross), and their order in the spiral."""
    start, end = np.array(a), np.array(b)
    points = (start + end) / 2 + spiral
    span = end - start
    length = max(float(np.hypot(*span)), 1e-9)
    clear = min(0.5, END_CLEARANCE / length)
    nearest = np.clip((points - start) @ span / (length * length), clear, 1.0 - clear)
    t = np.concatenate([nearest[:, None], np.broadcast_to(np.linspace(clear, 1.0 - clear, _FEET), (len(points), _FEET))], axis=1)
    return points, start + t[:, :, None] * span, np.arange(len(spiral), dtype=float)


def _stretches(a: Point, b: Point, spiral: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The spots searched, a stretch at a time: by the line, then round its middle, nearer then farther."""
    yield _by_the_line(a, b)
    yield _round_the_middle(a, b, spiral[:_SPIRAL_NEAR])
    yield _round_the_middle(a, b, spiral[_SPIRAL_NEAR:])


def _shallow_crossings(starts: np.ndarray, ends: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """How many of ``lines`` each segment from ``starts`` to ``ends`` crosses at less than STEEP degrees: a leader
    crossing a line steeply is seen to go on past it, one running along it could be taken for a branch of it."""
    if not len(lines) or not len(starts):
        return np.zeros(len(starts), dtype=int)
    apart = _crossings(starts, ends, lines)
    sx, sy, ex, ey = starts[:, 0:1], starts[:, 1:2], ends[:, 0:1], ends[:, 1:2]
    lx1, ly1, lx2, ly2 = (lines[:, i][None, :] for i in range(4))
    ux, uy, vx, vy = ex - sx, ey - sy, lx2 - lx1, ly2 - ly1
    sine = np.abs(ux * vy - uy * vx) / np.maximum(np.hypot(ux, uy) * np.hypot(vx, vy), 1e-9)
    counts: np.ndarray = (apart & (sine < math.sin(math.radians(STEEP)))).sum(axis=1)
    return counts


def _clearest(
    points: np.ndarray,
    feet: np.ndarray,
    *,
    r: float,
    boxes: np.ndarray,
    nodes: np.ndarray,
    contrasts: np.ndarray,
    lines: np.ndarray,
) -> tuple[int, tuple[int, ...]]:
    """The index of the clearest of the spots ``points`` (leaders from ``feet``), nearest first, and how it is tangled.
    Each test in turn keeps the spots that do best at it: the leader through the fewest nodes (it would seem to leave
    or join them), the disc on the fewest other contrasts' lines, the leader across the fewest and, of those it has
    to cross, the fewest at a shallow angle, the leader under the fewest labels, then the fewest other lines touched
    (a long leader counting as one)."""
    left = np.arange(len(points))
    key: list[int] = []
    for test in (
        lambda k: boxes_crossed(feet[k], points[k], nodes),
        lambda k: _shallow_crossings(feet[k], points[k], contrasts),
        lambda k: _lines_crossed(feet[k], points[k], contrasts),
        lambda k: _on_lines(points[k], contrasts, r).astype(int),
        lambda k: boxes_crossed(feet[k], points[k], boxes),
        # a leader longer than LEADER_REACH counts as one more line touched: a slanted leader to a far spot is taken
        # for the sake of the tests above, never to step round a faint link
        lambda k: _on_lines(points[k], lines, r) + _lines_crossed(feet[k], points[k], lines)
        + (np.hypot(*(points[k] - feet[k]).T) // LEADER_REACH).astype(int),
    ):
        scores = test(left)
        key.append(int(scores.min()))
        left = left[scores == scores.min()]
    return int(left[0]), tuple(key[:5])


def beside(
    a: Point,
    b: Point,
    *,
    r: float,
    gap: float,
    boxes: np.ndarray,
    nodes: np.ndarray,
    contrasts: np.ndarray,
    lines: np.ndarray,
    spiral: np.ndarray,
) -> Spot:
    """Where the marker (a square of half-side ``r``) of the line from ``a`` to ``b`` goes: clear of ``boxes`` by
    ``gap``, its leader through none of the squares ``nodes`` if it can be, and off the picture's other ``contrasts``
    (whose markers and axes it could be taken for) and its other ``lines``; ``spiral`` (offsets, nearest first) is
    searched when no spot by the line will do."""
    # another contrast between the same two ends runs along this very line, which no spot can keep off
    own = np.array([*a, *b]), np.array([*b, *a])
    contrasts = contrasts[~((contrasts == own[0]).all(axis=1) | (contrasts == own[1]).all(axis=1))]
    best: tuple[tuple[int, ...], Spot] | None = None
    for far, (points, feet, distance) in enumerate(_stretches(a, b, spiral)):
        if best is not None and far == 2 and best[0][:4] == (0, 0, 0, 0):
            break  # the far stretch only when nothing nearer is free of other contrasts: a long leader helps no one
        # the free spots, nearest first, as many as are worth weighing
        free = np.flatnonzero(_free(points, r, boxes, gap))
        free = free[np.argsort(distance[free], kind="stable")][:_WEIGHED]
        if not free.size:
            continue
        # a leader from the nearest foot first; slanted ones from the others only when none of those is clear
        for leaders in (feet[free][:, :1], feet[free][:, 1:]):
            if not leaders.shape[1]:
                continue
            # each free spot with each foot its leader may leave from, the shorter leader first
            reach = np.hypot(*(leaders - points[free][:, None, :]).transpose(2, 0, 1))
            order = np.argsort(reach, axis=1, kind="stable")
            spots = np.repeat(points[free], leaders.shape[1], axis=0)
            froms = np.take_along_axis(leaders, order[:, :, None], axis=1).reshape(-1, 2)
            k, tangled = _clearest(spots, froms, r=r, boxes=boxes, nodes=nodes, contrasts=contrasts, lines=lines)
            spot = Spot(float(spots[k][0]), float(spots[k][1]), float(froms[k][0]), float(froms[k][1]), any(tangled))
            if not spot.tangled:
                return spot
            if best is None or tangled < best[0]:
                best = (tangled, spot)
    if best is not None:
        return best[1]
    # nowhere free near: below everything placed, as a node with no room goes
    x, y = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    return Spot(x, (float(boxes[:, 3].max()) if len(boxes) else y) + gap + r, x, y, True)
