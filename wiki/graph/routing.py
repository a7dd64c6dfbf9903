"""Lines drawn around the nodes they would pass over.

A line between two nodes is drawn straight unless it passes over another node's shape. It is then drawn as a
quadratic curve bowed to one side: the least bow, tried on either side and growing up to a gentle one, that
clears every node and stays inside the picture, or, when none does, the one that passes over the fewest. A pure
function of the positions, like the rest of the layout.
"""

from __future__ import annotations

import math

import numpy as np

# How far a line keeps from a node's edge, in units.
CLEARANCE = 3.0
# How far a curve may stray from the straight line at its deepest point, in units, on one side then the other,
# and at most as a share of the line's length: a gentle bend, never a loop across the picture.
BOWS = (10.0, -10.0, 20.0, -20.0, 35.0, -35.0, 50.0, -50.0)
MAX_BOW = 0.3
_T = np.linspace(0.0, 1.0, 25)[:, None]

Bounds = tuple[float, float, float, float]


def curve_points(x1: float, y1: float, cx: float, cy: float, x2: float, y2: float) -> np.ndarray:
    """Points along the quadratic curve from (x1, y1) to (x2, y2) with control point (cx, cy)."""
    points: np.ndarray = (1 - _T) ** 2 * np.array([x1, y1]) + 2 * (1 - _T) * _T * np.array([cx, cy]) + _T**2 * np.array([x2, y2])
    return points


def _gaps(starts: np.ndarray, ends: np.ndarray, discs: np.ndarray) -> np.ndarray:
    """The distance from each disc's centre (across) to each segment from ``starts`` to ``ends`` (down)."""
    ax, ay = starts[:, 0:1], starts[:, 1:2]
    dx, dy = ends[:, 0:1] - ax, ends[:, 1:2] - ay
    cx, cy = discs[:, 0], discs[:, 1]
    t = np.clip(((cx - ax) * dx + (cy - ay) * dy) / np.maximum(dx * dx + dy * dy, 1e-9), 0.0, 1.0)
    ox, oy = cx - ax - t * dx, cy - ay - t * dy
    result: np.ndarray = np.sqrt(ox * ox + oy * oy)
    return result


def crossed(points: np.ndarray, discs: np.ndarray) -> np.ndarray:
    """For each disc (x, y, r) of ``discs``, whether the polyline through ``points`` comes within CLEARANCE of it."""
    result: np.ndarray = _gaps(points[:-1], points[1:], discs).min(axis=0) < discs[:, 2] + CLEARANCE
    return result


def routes(lines: np.ndarray, ends: np.ndarray, discs: np.ndarray, bounds: Bounds,
           straight: np.ndarray) -> list[tuple[float, float] | None]:
    """The control point of each line (x1, y1, x2, y2) of ``lines`` (None: straight): bent around the discs it
    passes over other than its two ``ends`` (their indexes in ``discs``), unless ``straight`` says otherwise."""
    over = _gaps(lines[:, :2], lines[:, 2:], discs) < discs[:, 2] + CLEARANCE  # (lines, discs)
    rows = np.arange(len(lines))
    over[rows, ends[:, 0]] = False
    over[rows, ends[:, 1]] = False
    controls: list[tuple[float, float] | None] = []
    for k, (x1, y1, x2, y2) in enumerate(lines.tolist()):
        if straight[k] or not over[k].any():
            controls.append(None)
            continue
        others = np.ones(len(discs), dtype=bool)
        others[ends[k]] = False
        controls.append(bend(x1, y1, x2, y2, discs[others], bounds))
    return controls


def bend(x1: float, y1: float, x2: float, y2: float, discs: np.ndarray, bounds: Bounds) -> tuple[float, float] | None:
    """The control point of a curve from (x1, y1) to (x2, y2) clearing ``discs`` (the other nodes, as x, y, r),
    or None when the straight line clears them already or no curve inside ``bounds`` passes over fewer."""
    length = math.hypot(x2 - x1, y2 - y1)
    if not len(discs) or not length:
        return None
    fewest = int(crossed(np.array([[x1, y1], [x2, y2]]), discs).sum())
    if not fewest:
        return None
    nx, ny = (y1 - y2) / length, (x2 - x1) / length
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    bows = [b for b in BOWS if abs(b) <= MAX_BOW * length]
    # only the discs a curve of the deepest bow could reach
    reach = max((abs(b) for b in bows), default=0.0) + CLEARANCE
    near = discs[(discs[:, 0] >= min(x1, x2) - reach - discs[:, 2]) & (discs[:, 0] <= max(x1, x2) + reach + discs[:, 2])
                 & (discs[:, 1] >= min(y1, y2) - reach - discs[:, 2]) & (discs[:, 1] <= max(y1, y2) + reach + discs[:, 2])]
    best = None
    for bow in bows:
        # the curve's deepest point is half way from the line's middle to its control point
        cx, cy = mx + nx * 2 * bow, my + ny * 2 * bow
        points = curve_points(x1, y1, cx, cy, x2, y2)
        if not (points[:, 0].min() >= bounds[0] and points[:, 1].min() >= bounds[1]
                and points[:, 0].max() <= bounds[2] and points[:, 1].max() <= bounds[3]):
            continue
        n = int(crossed(points, near).sum())
        if n < fewest:
            best, fewest = (round(cx, 1), round(cy, 1)), n
            if not n:
                break
    return best
