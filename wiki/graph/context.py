"""What the graph templates need: drawings plus the lists that say the same thing in words."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import networkx as nx
from django.http import HttpRequest
from django.urls import reverse
from django.utils.http import urlencode

from wiki.caching.values import cached_value
from wiki.graph.build import SubjectRef, contrast_graph, contrast_priority
from wiki.graph.forms import LocalGraphForm
from wiki.graph.layout import Drawing, DrawnNode, draw
from wiki.graph.local import UnknownNode, neighbourhood, neighbourhood_priority
from wiki.graph.nodes import EdgeType, split_node_id
from wiki.text.sort_keys import sort_key


@dataclass(frozen=True)
class Link:
    label: str
    url: str
    note: str = ""


@dataclass
class ClaimEntry:
    """A claim of a contrast graph with the works it cites (and where) and the works it is about."""

    text: Link
    page: Link | None
    cites: list[Link] = field(default_factory=list)
    about: list[Link] = field(default_factory=list)
    subjects: int = 0


@dataclass(frozen=True)
class Statement:
    left: Link
    right: Link
    axis: str
    claim: Link | None
    between_subjects: bool


def _link(graph: nx.MultiDiGraph[str], n: str, note: str = "") -> Link:
    data = graph.nodes[n]
    return Link(data["label"], data["url"], note)


def contrast_statements(graph: nx.MultiDiGraph[str], subjects: Iterable[str]) -> list[Statement]:
    """Every contrast edge of the graph; those between two of ``subjects`` first, then by the works' names as Chinese
    readers sort names."""
    chosen = set(subjects) | {f"source:{split_node_id(s)[1].split('/')[0]}" for s in subjects}
    out = []
    for u, v, data in graph.edges(data=True):
        if data["type"] != EdgeType.CONTRASTS.value:
            continue
        claim = f"claim:{data.get('claim')}"
        out.append(Statement(_link(graph, u), _link(graph, v), data["label"],
                             _link(graph, claim) if claim in graph else None, u in chosen and v in chosen))
    return sorted(out, key=lambda s: (not s.between_subjects, sort_key(s.left.label), sort_key(s.right.label)))


def claim_entries(graph: nx.MultiDiGraph[str], subjects: Iterable[str]) -> list[ClaimEntry]:
    """The claims of the graph, those that name more of ``subjects`` first, then by their text as Chinese readers sort
    it."""
    works = {f"source:{split_node_id(s)[1].split('/')[0]}" for s in subjects}
    entries = []
    for n, data in graph.nodes(data=True):
        if data["kind"] != "claim":
            continue
        pages = [u for u, _, d in graph.in_edges(n, data=True) if d["type"] == EdgeType.CONTAINS.value]
        entry = ClaimEntry(_link(graph, n), _link(graph, pages[0]) if pages else None)
        touched = set()
        for _, v, d in graph.out_edges(n, data=True):
            if d["type"] == EdgeType.CITES.value:
                entry.cites.append(_link(graph, v, d["label"]))
            elif d["type"] == EdgeType.ABOUT.value:
                entry.about.append(_link(graph, v))
            touched.add(v)
        entry.subjects = len(touched & works)
        entries.append(entry)
    return sorted(entries, key=lambda e: (-e.subjects, sort_key(e.text.label)))


@dataclass
class ContrastPicture:
    drawing: Drawing
    statements: list[Statement]
    claims: list[ClaimEntry]

    @property
    def own_statements(self) -> list[Statement]:
        """The contrasts between the works compared."""
        return [s for s in self.statements if s.between_subjects]

    @property
    def other_statements(self) -> list[Statement]:
        """Contrasts of one of the works with a work not compared."""
        return [s for s in self.statements if not s.between_subjects]


def contrast_picture(refs: list[SubjectRef]) -> ContrastPicture:
    graph = contrast_graph(refs)
    nodes = [r.node for r in refs]
    drawing = draw(graph, priority=contrast_priority(graph, refs), emphasis=nodes, label_contrasts=True)
    return ContrastPicture(drawing, contrast_statements(graph, nodes), claim_entries(graph, nodes))


@dataclass
class LocalGraph:
    center: str
    drawing: Drawing
    form: LocalGraphForm
    standalone_url: str  # the neighbourhood's own page, where its form is sent
    open_url: str  # that page as deep and with the edge types shown here; empty on that page
    depth: int = 1
    edges: list[str] | None = None  # None: every type

    @property
    def file_name(self) -> str:
        """A name for the neighbourhood's file: ``page-agentic-rl``, ``component-shepherd-tree-grpo``."""
        return self.center.replace(":", "-").replace("/", "-")

    @property
    def graphml_url(self) -> str:
        """The same neighbourhood from the API, as GraphML."""
        query: dict[str, str | int] = {"node": self.center, "depth": self.depth, "format": "graphml"}
        if self.edges and set(self.edges) != {t.value for t in EdgeType}:
            query["edge_types"] = ",".join(self.edges)
        return reverse("api:graph-local") + "?" + urlencode(query)

    @property
    def is_page(self) -> bool:
        return self.center.startswith("page:")

    @property
    def center_node(self) -> DrawnNode | None:
        """The node the neighbourhood is drawn around, which names it."""
        return next((node for node in self.drawing.nodes if node.id == self.center), None)


def local_graph_for(request: HttpRequest, center: str, *, standalone: bool = False) -> LocalGraph | None:
    """The local graph around ``center`` as the request's ``depth`` and ``edges`` ask, shown on its own page when
    ``standalone``; None when the centre does not exist."""
    data = None
    if "depth" in request.GET or "edges" in request.GET:
        data = request.GET.copy()
        if not data.getlist("edges"):
            # no box ticked reads as "every type", and the form shows it that way
            data.setlist("edges", [t.value for t in EdgeType])
    form = LocalGraphForm(data, initial={"depth": 1, "edges": [t.value for t in EdgeType]})
    depth, edges = 1, None
    if form.is_bound and form.is_valid():
        depth, edges = form.cleaned_data["depth"], form.cleaned_data["edges"] or None
    drawing = cached_value(request, "local-graph", center, depth, sorted(edges or []),
                           build=lambda: _local_drawing(center, depth, edges))
    if drawing is None:
        return None
    kind, key = split_node_id(center)
    url = reverse("wiki:graph-local", kwargs={"kind": kind, "key": key})
    shown = "?" + urlencode({"depth": depth, "edges": edges or []}, doseq=True) if form.is_bound and form.is_valid() else ""
    return LocalGraph(center, drawing, form, url, "" if standalone else url + shown, depth=depth, edges=edges)


def _local_drawing(center: str, depth: int, edges: list[str] | None) -> Drawing | None:
    try:
        graph = neighbourhood(center, depth=depth, edge_types=edges)
    except UnknownNode:
        return None
    # a page's works are set around it in rings; other neighbourhoods find their own shape
    positions = "radial" if split_node_id(center)[0] == "page" else "spring"
    return draw(graph, priority=neighbourhood_priority(graph, center), center=center, positions=positions)
