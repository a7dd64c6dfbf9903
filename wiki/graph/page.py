"""The neighbourhood of a page, works first.

A page's picture is the works its claims cite or are about (coloured by mechanism, shaped by
verdict), the contrasts between them, then the pages it links to or is linked from, then its open
questions. Claims are not nodes: each page → work edge carries the claims behind it, shown on
demand (its title, and the text equivalent). At most seven queries, each bounded.
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx
from django.db.models import Q
from django.urls import reverse

from wiki.graph.build import _CONTRAST_FIELDS, CANDIDATE_LIMIT, NEIGHBOUR_LIMIT, _add_contrast_rows, _decorate_sources
from wiki.graph.nodes import EdgeType, GraphBuilder, node_id
from wiki.models import Citation, Claim, Contrast, GlossaryTerm, OpenQuestion, Page, QuestionStatus, Source, WikiLink

WORK_KINDS = ("source", "component")


def _claim_url(page_slug: str, pk: int, anchor: str) -> str:
    return reverse("wiki:page-detail", kwargs={"slug": page_slug}) + f"#{anchor or f'claim-{pk}'}"


def _add_claim_edge(b: GraphBuilder, page: str, work: str, kind: EdgeType, claim: tuple[str, str], locator: str = "") -> None:
    b.edge(page, work, kind, locator)
    claims = b.graph.edges[page, work, kind.value].setdefault("claims", [])
    if claim not in claims:
        claims.append(claim)


def page_neighbourhood(slug: str, *, depth: int = 1, edge_types: Iterable[EdgeType] | None = None) -> nx.MultiDiGraph[str] | None:
    """The works-first neighbourhood of page ``slug``; None when there is no such page.

    ``depth`` 2 adds every contrast that touches one of the works, and the works on its other side.
    """
    types = frozenset(edge_types) if edge_types else frozenset(EdgeType)
    row = Page.objects.filter(slug=slug).values_list("slug", "title").first()
    if row is None:
        return None
    b = GraphBuilder()
    page = b.page(*row)
    claims = Claim.objects.current().filter(page__slug=slug)
    if EdgeType.CITES in types:
        for pk, text, anchor, s_slug, name, locator in Citation.objects.filter(claim__in=claims).order_by(
            "claim__position", "position"
        ).values_list("claim_id", "claim__text", "claim__anchor", "source__slug", "source__short_name", "locator")[:CANDIDATE_LIMIT]:
            _add_claim_edge(b, page, b.source(s_slug, name), EdgeType.CITES, (text, _claim_url(slug, pk, anchor)), locator)
    if EdgeType.ABOUT in types:
        for pk, text, anchor, s_slug, name in Claim.about.through.objects.filter(claim__in=claims).order_by(
            "claim__position"
        ).values_list("claim_id", "claim__text", "claim__anchor", "source__slug", "source__short_name")[:CANDIDATE_LIMIT]:
            work = b.source(s_slug, name)
            if not b.graph.has_edge(page, work, EdgeType.CITES.value):
                _add_claim_edge(b, page, work, EdgeType.ABOUT, (text, _claim_url(slug, pk, anchor)))
    works = [n.split(":", 1)[1] for n, d in b.graph.nodes(data=True) if d["kind"] == "source"]
    if EdgeType.CONTRASTS in types and works:
        ids = Source.objects.filter(slug__in=works).values("id")
        between = Q(left_id__in=ids, right_id__in=ids) if depth < 2 else Q(left_id__in=ids) | Q(right_id__in=ids)
        _add_contrast_rows(b, Contrast.objects.filter(between).order_by("id").values_list(*_CONTRAST_FIELDS)[:NEIGHBOUR_LIMIT])
        # a contrast naming a component hangs it on its work, which is already drawn
    if EdgeType.LINKS_TO in types:
        out = list(WikiLink.objects.filter(source_page__slug=slug).values_list("target_slug", "target_title")[:NEIGHBOUR_LIMIT])
        existing = dict(Page.objects.filter(slug__in=[t for t, _ in out]).values_list("slug", "title"))
        # a link no page answers leads to the glossary term it names, as the page's text shows it; else it is wanted
        terms = GlossaryTerm.objects.slugs_linked_as({target for target, _ in out} - existing.keys())
        for target, title in out:
            if target != slug:
                b.edge(page, b.page(target, existing.get(target) or title), EdgeType.LINKS_TO)
                if target in terms and target not in existing:
                    b.graph.nodes[node_id("page", target)]["url"] = reverse("wiki:glossary-detail", args=[terms[target]])
                elif target not in existing:
                    b.graph.nodes[node_id("page", target)]["wanted"] = "1"
        linking = WikiLink.objects.from_live_pages().filter(target_slug=slug).exclude(source_page__slug=slug)
        for src, src_title in linking.values_list("source_page__slug", "source_page__title")[:NEIGHBOUR_LIMIT]:
            b.edge(b.page(src, src_title), page, EdgeType.LINKS_TO)
    if EdgeType.RAISES in types:
        for pk, title in OpenQuestion.objects.filter(page__slug=slug).exclude(status=QuestionStatus.DROPPED).values_list(
            "id", "title"
        )[:NEIGHBOUR_LIMIT]:
            b.edge(page, b.question(pk, title), EdgeType.RAISES)
    _decorate_sources(b)
    b.graph.graph["center"] = page
    return b.graph


def works_first_priority(graph: nx.MultiDiGraph[str], center: str) -> list[str]:
    """What to keep when the picture is cut: the page, works cited, works only talked about, pages, wanted pages, questions."""
    def rank(n: str) -> tuple[int, str]:
        data = graph.nodes[n]
        if n == center:
            return 0, ""
        if data["kind"] in WORK_KINDS:
            cited = graph.has_edge(center, n, EdgeType.CITES.value)
            return (1 if cited else 2), data["label"].lower()
        if data["kind"] == "page":
            return (5 if data.get("wanted") else 3), data["label"].lower()
        return 6, data["label"].lower()
    return sorted(graph, key=rank)
