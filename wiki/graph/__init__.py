"""The claim graph: networkx graphs built from the database, laid out and drawn as inline SVG."""

from wiki.graph.build import MapSummary, SubjectRef, contrast_graph, contrast_priority, map_graph
from wiki.graph.layout import Drawing, draw
from wiki.graph.local import UnknownNode, distance_priority, local_graph
from wiki.graph.nodes import EdgeType, node_id

__all__ = [
    "Drawing",
    "EdgeType",
    "MapSummary",
    "SubjectRef",
    "UnknownNode",
    "contrast_graph",
    "contrast_priority",
    "distance_priority",
    "draw",
    "local_graph",
    "map_graph",
    "node_id",
]
