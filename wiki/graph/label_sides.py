"""Which side of its node a hub's or a work's label is written on, so that the picture's lines do not run under it.

A label is written below its node unless lines run under it there and another side with fewer (above, right, left,
then the node's corners, in that order) is free of every other label, node and axis: a label over lines still reads
through its white outline, but a reader cannot tell where those lines go, nor which of them meet at the node (a work's
own lines leaving it downwards ran through its name). A pure function of what was placed, like the layout.
"""

from __future__ import annotations

import numpy as np

from wiki.graph.markers import boxes_crossed

# How far a label keeps from another label, node or axis when it moves to another side of its node.
LABEL_GAP = 2.0


def lines_under(box: np.ndarray, segments: np.ndarray, owners: np.ndarray) -> int:
    """How many lines run under ``box`` (x0, y0, x1, y1): ``segments`` (x1, y1, x2, y2), each a piece of the line
    ``owners`` names (a curve is drawn as several)."""
    if not len(segments):
        return 0
    hit = boxes_crossed(segments[:, :2], segments[:, 2:], box[None, :]) > 0
    return len(set(owners[hit].tolist()))


def clearest_side(sides: np.ndarray, others: np.ndarray, segments: np.ndarray, owners: np.ndarray) -> int:
    """The index of the box of ``sides`` (the label below its node first) that the fewest lines run under, of those
    clear of the boxes ``others`` by LABEL_GAP; the first of them on a tie, so that a label moves only to gain."""
    best, fewest = 0, lines_under(sides[0], segments, owners)
    for k in range(1, len(sides)):
        x0, y0, x1, y1 = sides[k]
        if len(others) and (
            (x0 < others[:, 2] + LABEL_GAP) & (others[:, 0] < x1 + LABEL_GAP)
            & (y0 < others[:, 3] + LABEL_GAP) & (others[:, 1] < y1 + LABEL_GAP)
        ).any():
            continue
        under = lines_under(sides[k], segments, owners)
        if under < fewest:
            best, fewest = k, under
    return best
