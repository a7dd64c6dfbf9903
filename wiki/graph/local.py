"""The neighbourhood of one node, one or two steps out, through the chosen edge types.

Each step runs at most one query per (kind of node in the frontier, edge type), each capped at
``NEIGHBOUR_LIMIT`` rows, so the cost is bounded by the neighbourhood and never by the wiki.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

import networkx as nx
from django.db.models import Q

from classifier.taxonomy import Mechanism
from wiki.graph.build import (
    _CONTRAST_FIELDS,
    _SUBJECT_FIELDS,
    NEIGHBOUR_LIMIT,
    _add_classification_rows,
    _add_contrast_rows,
    _decorate_sources,
    _either_side,
)
from wiki.graph.nodes import EdgeType, GraphBuilder, content_key, node_id, split_node_id
from wiki.graph.page import page_neighbourhood, works_first_priority
from wiki.models import (
    Citation,
    Claim,
    Classification,
    Component,
    Contrast,
    OpenQuestion,
    Page,
    QuestionStatus,
    Source,
    WikiLink,
)

L = NEIGHBOUR_LIMIT
ALL_EDGE_TYPES = frozenset(EdgeType)
_Q_CLAIMS = OpenQuestion.claims.through
_Q_SOURCES = OpenQuestion.sources.through
_ABOUT = Claim.about.through
# dropped questions are no longer part of the argument; they stay reachable from the queue
DROPPED = QuestionStatus.DROPPED
# A deleted page takes its claims and questions out of every graph, as out of every other read: rows reached through
# a work, a question or another claim are kept only when the claim or question is on a live page (or on none).
_LIVE_CLAIM = Q(claim__page__deleted_at__isnull=True)
_LIVE_ANSWER = Q(answer_claim__page__deleted_at__isnull=True)
_LIVE_QUESTION = Q(openquestion__page__deleted_at__isnull=True)


class UnknownNode(LookupError):
    """The centre of a local graph names nothing in the wiki."""


def _add_center(b: GraphBuilder, center: str) -> None:
    kind, key = split_node_id(center)
    found = False
    if kind == "page":
        for slug, title in Page.objects.filter(slug=key).values_list("slug", "title"):
            found = bool(b.page(slug, title))
    elif kind == "source":
        for slug, name in Source.objects.filter(slug=key).values_list("slug", "short_name"):
            found = bool(b.source(slug, name))
    elif kind == "component":
        source_slug, _, slug = key.partition("/")
        for s_slug, s_name, c_slug, c_name in Component.objects.filter(source__slug=source_slug, slug=slug).values_list(
            "source__slug", "source__short_name", "slug", "name"
        ):
            found = bool(b.component(s_slug, c_slug, name=c_name, source_name=s_name))
    elif kind == "claim" and key.isdigit():
        for pk, text, page_slug, anchor in Claim.objects.on_live_pages().filter(pk=int(key)).values_list(
            "id", "text", "page__slug", "anchor"
        ):
            found = bool(b.claim(pk, text, page_slug=page_slug, anchor=anchor))
    elif kind == "mechanism" and key in {m.value for m in Mechanism}:
        found = bool(b.mechanism(key))
    elif kind == "question" and key.isdigit():
        for pk, title in OpenQuestion.objects.live().filter(pk=int(key)).values_list("id", "title"):
            found = bool(b.question(pk, title))
    if not found:
        raise UnknownNode(center)


def _claim(b: GraphBuilder, pk: int, text: str, page_slug: str, anchor: str) -> str:
    return b.claim(pk, text, page_slug=page_slug, anchor=anchor)


def _expand_pages(b: GraphBuilder, slugs: list[str], types: frozenset[EdgeType]) -> None:
    if EdgeType.CONTAINS in types:
        for pk, text, slug, anchor in Claim.objects.current().filter(page__slug__in=slugs).order_by("page_id", "position").values_list(
            "id", "text", "page__slug", "anchor"
        )[:L]:
            b.edge(node_id("page", slug), _claim(b, pk, text, slug, anchor), EdgeType.CONTAINS)
    if EdgeType.LINKS_TO in types:
        for src, target, title in WikiLink.objects.from_live_pages().filter(source_page__slug__in=slugs).values_list(
            "source_page__slug", "target_slug", "target_title"
        )[:L]:
            b.edge(node_id("page", src), b.page(target, title), EdgeType.LINKS_TO)
        for src, src_title, target in WikiLink.objects.from_live_pages().filter(target_slug__in=slugs).values_list(
            "source_page__slug", "source_page__title", "target_slug"
        )[:L]:
            b.edge(b.page(src, src_title), node_id("page", target), EdgeType.LINKS_TO)
    if EdgeType.RAISES in types:
        for pk, title, slug in OpenQuestion.objects.live().filter(page__slug__in=slugs).exclude(status=DROPPED).values_list("id", "title", "page__slug")[:L]:
            b.edge(node_id("page", slug), b.question(pk, title), EdgeType.RAISES)


def _expand_claims(b: GraphBuilder, ids: list[int], types: frozenset[EdgeType]) -> None:
    if EdgeType.CONTAINS in types:
        for pk, slug, title in Claim.objects.filter(pk__in=ids).values_list("id", "page__slug", "page__title"):
            b.edge(b.page(slug, title), node_id("claim", pk), EdgeType.CONTAINS)
    if EdgeType.CITES in types:
        for pk, slug, name, locator in Citation.objects.filter(claim_id__in=ids).order_by("claim_id", "position").values_list(
            "claim_id", "source__slug", "source__short_name", "locator"
        )[:L]:
            b.edge(node_id("claim", pk), b.source(slug, name), EdgeType.CITES, locator)
    if EdgeType.ABOUT in types:
        for pk, slug, name in _ABOUT.objects.filter(claim_id__in=ids).values_list("claim_id", "source__slug", "source__short_name")[:L]:
            b.edge(node_id("claim", pk), b.source(slug, name), EdgeType.ABOUT)
    if EdgeType.RAISES in types:
        for pk, qid, title in _Q_CLAIMS.objects.filter(_LIVE_QUESTION, claim_id__in=ids).exclude(openquestion__status=DROPPED).values_list("claim_id", "openquestion_id", "openquestion__title")[:L]:
            b.edge(node_id("claim", pk), b.question(qid, title), EdgeType.RAISES)
    if EdgeType.ANSWERS in types:
        for qid, title, pk in OpenQuestion.objects.live().filter(answer_claim_id__in=ids).exclude(status=DROPPED).values_list("id", "title", "answer_claim_id")[:L]:
            b.edge(node_id("claim", pk), b.question(qid, title), EdgeType.ANSWERS)
    if EdgeType.CONTRASTS in types:
        # the contrasts a claim is the evidence for, as its own page lists them: the line between the two works
        _add_contrast_rows(b, Contrast.objects.filter(claim_id__in=ids).order_by("id").values_list(*_CONTRAST_FIELDS)[:L])


def _expand_subjects(b: GraphBuilder, slugs: list[str], components: list[tuple[str, str]], types: frozenset[EdgeType]) -> None:
    """Works and components share contrasts and classifications."""
    by_source = Q(source__slug__in=slugs) if slugs else Q(pk__in=[])
    by_component = Q(pk__in=[])
    left = _either_side(slugs) if slugs else Q(pk__in=[])
    for s, c in components:
        by_component |= Q(source__slug=s, component__slug=c)
        left |= Q(left__slug=s, left_component__slug=c) | Q(right__slug=s, right_component__slug=c)
    if EdgeType.CLASSIFIED_AS in types:
        rows = Classification.objects.filter(by_source | by_component).order_by("source_id", "component_id")
        _add_classification_rows(b, rows.values_list(*_SUBJECT_FIELDS)[:L], hubs=True)
    if EdgeType.CONTRASTS in types:
        _add_contrast_rows(b, Contrast.objects.filter(left).order_by("id").values_list(*_CONTRAST_FIELDS)[:L])
    if not slugs:
        return
    if EdgeType.COMPONENT_OF in types:
        for s_slug, s_name, c_slug, c_name in Component.objects.filter(source__slug__in=slugs).values_list(
            "source__slug", "source__short_name", "slug", "name"
        )[:L]:
            b.component(s_slug, c_slug, name=c_name, source_name=s_name)
    if EdgeType.CITES in types:
        for pk, text, page_slug, anchor, slug, locator in Citation.objects.filter(_LIVE_CLAIM, source__slug__in=slugs).order_by("claim_id").values_list(
            "claim_id", "claim__text", "claim__page__slug", "claim__anchor", "source__slug", "locator"
        )[:L]:
            b.edge(_claim(b, pk, text, page_slug, anchor), node_id("source", slug), EdgeType.CITES, locator)
    if EdgeType.ABOUT in types:
        for pk, text, page_slug, anchor, slug in _ABOUT.objects.filter(_LIVE_CLAIM, source__slug__in=slugs).order_by("claim_id").values_list(
            "claim_id", "claim__text", "claim__page__slug", "claim__anchor", "source__slug"
        )[:L]:
            b.edge(_claim(b, pk, text, page_slug, anchor), node_id("source", slug), EdgeType.ABOUT)
    if EdgeType.RAISES in types:
        for qid, title, slug in _Q_SOURCES.objects.filter(_LIVE_QUESTION, source__slug__in=slugs).exclude(openquestion__status=DROPPED).values_list(
            "openquestion_id", "openquestion__title", "source__slug"
        )[:L]:
            b.edge(node_id("source", slug), b.question(qid, title), EdgeType.RAISES)


def _expand_mechanisms(b: GraphBuilder, values: list[str], types: frozenset[EdgeType]) -> None:
    if EdgeType.CLASSIFIED_AS in types:
        rows = Classification.objects.filter(mechanism__in=values).in_subject_order()
        _add_classification_rows(b, rows.values_list(*_SUBJECT_FIELDS)[:L], hubs=True)


def _expand_questions(b: GraphBuilder, ids: list[int], types: frozenset[EdgeType]) -> None:
    if EdgeType.RAISES in types:
        for qid, slug, title in OpenQuestion.objects.filter(pk__in=ids, page__isnull=False).values_list("id", "page__slug", "page__title"):
            b.edge(b.page(slug, title), node_id("question", qid), EdgeType.RAISES)
        for qid, pk, text, page_slug, anchor in _Q_CLAIMS.objects.filter(_LIVE_CLAIM, openquestion_id__in=ids).values_list(
            "openquestion_id", "claim_id", "claim__text", "claim__page__slug", "claim__anchor"
        )[:L]:
            b.edge(_claim(b, pk, text, page_slug, anchor), node_id("question", qid), EdgeType.RAISES)
        for qid, slug, name in _Q_SOURCES.objects.filter(openquestion_id__in=ids).values_list(
            "openquestion_id", "source__slug", "source__short_name"
        )[:L]:
            b.edge(b.source(slug, name), node_id("question", qid), EdgeType.RAISES)
    if EdgeType.ANSWERS in types:
        for qid, pk, text, page_slug, anchor in OpenQuestion.objects.filter(_LIVE_ANSWER, pk__in=ids, answer_claim__isnull=False).values_list(
            "id", "answer_claim_id", "answer_claim__text", "answer_claim__page__slug", "answer_claim__anchor"
        ):
            b.edge(_claim(b, pk, text, page_slug, anchor), node_id("question", qid), EdgeType.ANSWERS)


def _expand(b: GraphBuilder, frontier: Iterable[str], types: frozenset[EdgeType]) -> None:
    keys: dict[str, list[str]] = defaultdict(list)
    for nid in frontier:
        kind, key = split_node_id(nid)
        keys[kind].append(key)
    if keys["page"]:
        _expand_pages(b, keys["page"], types)
    if keys["claim"]:
        _expand_claims(b, [int(k) for k in keys["claim"]], types)
    if keys["source"] or keys["component"]:
        pairs = [tuple(k.split("/", 1)) for k in keys["component"]]
        if EdgeType.COMPONENT_OF in types:
            keys["source"] += [s for s, _ in pairs if s not in keys["source"]]
        _expand_subjects(b, keys["source"], pairs, types)  # type: ignore[arg-type]
    if keys["mechanism"]:
        _expand_mechanisms(b, keys["mechanism"], types)
    if keys["question"]:
        _expand_questions(b, [int(k) for k in keys["question"]], types)


def local_graph(center: str, *, depth: int = 1, edge_types: Iterable[EdgeType | str] | None = None) -> nx.MultiDiGraph[str]:
    """Nodes within ``depth`` (1 or 2) steps of ``center`` through ``edge_types`` (all when None).

    Raises :class:`UnknownNode` when the centre does not exist.
    """
    types = frozenset(EdgeType(t) for t in edge_types) if edge_types else ALL_EDGE_TYPES
    b = GraphBuilder()
    _add_center(b, center)
    frontier = {center}
    for _ in range(max(1, min(depth, 2))):
        before = set(b.graph)
        _expand(b, frontier, types)
        frontier = set(b.graph) - before
        if not frontier:
            break
    _decorate_sources(b)
    b.graph.graph["center"] = center
    return b.graph


def distance_priority(graph: nx.MultiDiGraph[str], center: str) -> list[str]:
    """Nodes nearest the centre first, so that cutting the picture keeps the closest neighbours; the centre's own
    neighbours before anything two steps out, and of those, what is reached only through a mechanism hub (every other
    work classified so: siblings, not neighbours) after the claims, pages and works reached otherwise."""
    undirected = graph.to_undirected(as_view=True)
    distances = nx.single_source_shortest_path_length(undirected, center)

    not_through_a_hub: nx.Graph[str] = nx.Graph()
    not_through_a_hub.add_node(center)
    not_through_a_hub.add_edges_from((u, v) for u, v, key in graph.edges(keys=True)
                                     if key != EdgeType.CLASSIFIED_AS.value or center in (u, v))
    direct = nx.single_source_shortest_path_length(not_through_a_hub, center)

    def rank(n: str) -> tuple[int, int, bool, tuple[str, str, str]]:
        near = distances.get(n, 99)
        sibling = near > 1 and n not in direct
        return int(sibling), near, graph.nodes[n]["kind"] != "source", content_key(graph, n)

    return sorted(graph, key=rank)


def neighbourhood(center: str, *, depth: int = 1, edge_types: Iterable[EdgeType | str] | None = None) -> nx.MultiDiGraph[str]:
    """The neighbourhood of ``center`` as the wiki both draws and exports it: a page's works first (the works its
    claims cite or are about, their contrasts, then linked pages and its questions; see :mod:`wiki.graph.page`),
    any other node's :func:`local_graph`. One function for both, so that a download is the graph on screen.

    Raises :class:`UnknownNode` when the centre does not exist.
    """
    kind, key = split_node_id(center)
    if kind != "page":
        return local_graph(center, depth=depth, edge_types=edge_types)
    graph = page_neighbourhood(key, depth=depth, edge_types=[EdgeType(t) for t in edge_types] if edge_types else None)
    if graph is None:
        raise UnknownNode(center)
    return graph


def neighbourhood_priority(graph: nx.MultiDiGraph[str], center: str) -> list[str]:
    """Which nodes of a :func:`neighbourhood` to keep when its picture must be cut."""
    if split_node_id(center)[0] == "page":
        return works_first_priority(graph, center)
    return distance_priority(graph, center)
