"""Node ids, edge types and a small builder that keeps node attributes consistent.

Node ids read like ``page:agentic-rl``, ``source:skillforge``, ``component:shepherd/tree-grpo``,
``claim:12``, ``mechanism:policy_gradient``, ``question:3``; every node carries ``kind``,
``label``, ``url``, ``mechanism`` and ``verdict`` (the last two empty when they do not apply).
"""

from __future__ import annotations

import json
from enum import Enum
from typing import Any

import networkx as nx
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from wiki.references.locators import locator_key
from wiki.taxonomy import mechanism_label


def content_key(graph: nx.MultiDiGraph[str], n: str) -> tuple[str, str, str]:
    """Where node ``n`` goes in an order that the rows' ids do not change, so that a wiki loaded twice is drawn the
    same way: by kind, then by slug, or by label for a node named by its row's id (``claim:12`` and ``claim:3`` by
    their text, not by ``"12" < "3"``)."""
    kind, _, rest = n.partition(":")
    return kind, graph.nodes[n].get("label", "") if rest.isdigit() else rest, n


def graph_text(graph: nx.MultiDiGraph[str]) -> str:
    """Everything a drawing of ``graph`` is made from, as one text: its nodes and edges in order, with their
    attributes. Two graphs with the same text are drawn the same."""
    return json.dumps([list(graph.nodes(data=True)), list(graph.edges(keys=True, data=True)), graph.graph],
                      sort_keys=True, default=str, ensure_ascii=False)


class EdgeType(str, Enum):
    CITES = "cites"
    ABOUT = "about"
    CONTRASTS = "contrasts"
    LINKS_TO = "links_to"
    COMPONENT_OF = "component_of"
    CONTAINS = "contains"
    RAISES = "raises"
    ANSWERS = "answers"
    CLASSIFIED_AS = "classified_as"

    @property
    def label(self) -> str:
        return str(EDGE_LABELS[self])


EDGE_LABELS: dict[EdgeType, Any] = {
    EdgeType.CITES: _("cites"),
    EdgeType.ABOUT: _("is about"),
    EdgeType.CONTRASTS: _("contrasts with"),
    EdgeType.LINKS_TO: _("links to"),
    EdgeType.COMPONENT_OF: _("component of"),
    EdgeType.CONTAINS: _("states"),
    EdgeType.RAISES: _("raises"),
    EdgeType.ANSWERS: _("answers"),
    EdgeType.CLASSIFIED_AS: _("classified as"),
}

NODE_KINDS = ("page", "source", "component", "claim", "mechanism", "question")
KIND_LABELS = {
    "page": _("Page"),
    "source": _("Work"),
    "component": _("Component of a work"),
    "claim": _("Claim"),
    "mechanism": _("Mechanism"),
    "question": _("Open question"),
}


def node_id(kind: str, key: object) -> str:
    return f"{kind}:{key}"


def split_node_id(value: str) -> tuple[str, str]:
    kind, _, key = value.partition(":")
    return kind, key


def subject_node(source_slug: str, component_slug: str | None) -> str:
    """The node of a classified subject: the work itself, or one of its components."""
    return node_id("component", f"{source_slug}/{component_slug}") if component_slug else node_id("source", source_slug)


def subject_ref(nid: str) -> str:
    """A work's or component's node as the contrast and comparison addresses name it: ``shepherd:tree-grpo``."""
    return split_node_id(nid)[1].replace("/", ":", 1)


class GraphBuilder:
    """Adds typed nodes and edges; a node seen twice keeps the attributes it already has."""

    def __init__(self) -> None:
        self.graph: nx.MultiDiGraph[str] = nx.MultiDiGraph()

    def _node(self, nid: str, **attrs: str) -> str:
        if nid in self.graph:
            current = self.graph.nodes[nid]
            for key, value in attrs.items():
                if value and not current.get(key):
                    current[key] = value
        else:
            self.graph.add_node(nid, **{"mechanism": "", "verdict": "", **attrs})
        return nid

    def page(self, slug: str, title: str) -> str:
        url = reverse("wiki:page-detail", kwargs={"slug": slug})
        return self._node(node_id("page", slug), kind="page", label=title or slug, url=url)

    def source(self, slug: str, short_name: str, *, mechanism: str = "", verdict: str = "") -> str:
        nid = node_id("source", slug)
        # a work met again (each contrast and classification names it) keeps its address: reverse() is the cost of a large map
        url = self.graph.nodes[nid]["url"] if nid in self.graph else reverse("wiki:source-detail", kwargs={"slug": slug})
        return self._node(nid, kind="source", label=short_name or slug, url=url, mechanism=mechanism, verdict=verdict)

    def component(self, source_slug: str, slug: str, *, name: str, source_name: str,
                  mechanism: str = "", verdict: str = "") -> str:
        url = reverse("wiki:source-detail", kwargs={"slug": source_slug}) + f"#component-{slug}"
        nid = self._node(subject_node(source_slug, slug), kind="component", label=f"{source_name} {name}".strip(), url=url,
                         mechanism=mechanism, verdict=verdict)
        self.edge(nid, self.source(source_slug, source_name), EdgeType.COMPONENT_OF)
        return nid

    def subject(self, source_slug: str, source_name: str, component_slug: str | None, component_name: str | None,
                *, mechanism: str = "", verdict: str = "") -> str:
        if component_slug:
            return self.component(source_slug, component_slug, name=component_name or component_slug,
                                  source_name=source_name, mechanism=mechanism, verdict=verdict)
        return self.source(source_slug, source_name, mechanism=mechanism, verdict=verdict)

    def claim(self, pk: int, text: str, *, page_slug: str, anchor: str) -> str:
        url = reverse("wiki:page-detail", kwargs={"slug": page_slug}) + f"#{anchor or f'claim-{pk}'}"
        return self._node(node_id("claim", pk), kind="claim", label=text, url=url)

    def mechanism(self, value: str) -> str:
        nid = node_id("mechanism", value)
        if nid in self.graph:  # the hub of every work classified so
            return nid
        label = mechanism_label(value)
        url = reverse("wiki:source-list") + f"?mechanism={value}"
        return self._node(nid, kind="mechanism", label=label, url=url, mechanism=value)

    def question(self, pk: int, title: str) -> str:
        url = reverse("wiki:question-detail", kwargs={"pk": pk})
        return self._node(node_id("question", pk), kind="question", label=title, url=url)

    def edge(self, u: str, v: str, kind: EdgeType, label: str = "") -> None:
        """One edge per (u, v, type); a second locator for the same pair is appended to the label (one pointing at the
        same place, ``pp.3-4`` after ``第3-4页``, is not)."""
        if self.graph.has_edge(u, v, key=kind.value):
            data = self.graph.edges[u, v, kind.value]
            if label and locator_key(label) not in {locator_key(known) for known in data["label"].split(" · ")}:
                data["label"] = f"{data['label']} · {label}" if data["label"] else label
            return
        self.graph.add_edge(u, v, key=kind.value, type=kind.value, label=label)
