"""Building claim graphs from the database with a few flat ``values_list`` queries each.

Every function issues a fixed number of queries, each bounded by the neighbourhood it asks about
(and by ``*_LIMIT``), so that the cost does not grow with the size of the wiki.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
from django.db.models import Case, Count, Q, Value, When
from django.utils.translation import gettext

from classifier.taxonomy import Mechanism
from wiki.graph.nodes import EdgeType, GraphBuilder, content_key, node_id, split_node_id, subject_node
from wiki.models import Citation, Claim, Classification, Contrast, Source
from wiki.models.classifications import SUBJECT_ORDER

MAP_LIMIT = 42
# The map as a file (GraphML, JSON from the API) is for what is too large to draw: by default it holds this many
# works and components of the filter's, and as many contrasts; ``?limit=`` asks for up to MAP_EXPORT_MAX of each.
MAP_EXPORT_LIMIT = 5000
MAP_EXPORT_MAX = 20000
CONTRAST_CLAIM_LIMIT = 12
NEIGHBOUR_LIMIT = 60
CANDIDATE_LIMIT = 400

_SUBJECT_FIELDS = ("source__slug", "source__short_name", "component__slug", "component__name", "mechanism", "verdict")


@dataclass(frozen=True)
class SubjectRef:
    """A work, or one component of it: ``skillforge`` or ``shepherd:tree-grpo``."""

    source: str
    component: str | None = None

    @classmethod
    def parse(cls, text: str) -> SubjectRef:
        source, _, component = text.strip().partition(":")
        return cls(source.strip(), component.strip() or None)

    def __str__(self) -> str:
        return f"{self.source}:{self.component}" if self.component else self.source

    @property
    def node(self) -> str:
        return subject_node(self.source, self.component)


def now_named(refs: Sequence[SubjectRef]) -> list[SubjectRef] | None:
    """``refs`` with every work merged into another named as that one (a repeat left out), or None when none was merged
    (one query)."""
    merged = Source.all_objects.merged_slugs(ref.source for ref in refs)
    if not merged:
        return None
    return list(dict.fromkeys(SubjectRef(merged.get(ref.source, ref.source), ref.component) for ref in refs))



@dataclass
class MapSummary:
    """How many works the map stands for, by mechanism and verdict, and how many it leaves out; how many contrasts
    there are and how many it draws."""

    counts: dict[str, Counter[str]] = field(default_factory=dict)
    total: int = 0
    drawn: int = 0
    unclassified: int = 0  # works no one has classified yet: not on the map, unless a contrast names them
    contrasts: int = 0
    contrasts_drawn: int = 0
    limit: int = MAP_LIMIT  # how many of the filter's works the map may hold

    @property
    def hidden(self) -> int:
        return max(0, self.total - self.drawn)

    @property
    def contrasts_hidden(self) -> int:
        return max(0, self.contrasts - self.contrasts_drawn)

    @property
    def cut(self) -> bool:
        """Whether the map leaves out a work or a contrast of the filter's."""
        return bool(self.hidden or self.contrasts_hidden)

    @property
    def note(self) -> str:
        """What the map holds and what it leaves out, in words, in the active language."""
        if not self.cut:
            return gettext("Classified works and components the filter asks for: all %(works)d; contrasts with a side "
                           "among them: all %(contrasts)d.") % {"works": self.total, "contrasts": self.contrasts}
        return gettext(
            "Cut at limit=%(limit)d. Classified works and components the filter asks for: %(works)d of %(total)d (those "
            "in contrasts first, then by name); contrasts with a side among them: %(contrasts)d of %(all_contrasts)d "
            "(the newest first). A larger limit, up to %(max)d, holds more."
        ) % {"limit": self.limit, "works": self.drawn, "total": self.total, "contrasts": self.contrasts_drawn,
             "all_contrasts": self.contrasts, "max": MAP_EXPORT_MAX}


def _add_classification_rows(b: GraphBuilder, rows: Iterable[tuple[str, str, str | None, str | None, str, str]],
                             *, hubs: bool) -> list[str]:
    added = []
    for slug, name, comp_slug, comp_name, mechanism, verdict in rows:
        nid = b.subject(slug, name, comp_slug, comp_name, mechanism=mechanism, verdict=verdict)
        if hubs:
            b.edge(nid, b.mechanism(mechanism), EdgeType.CLASSIFIED_AS)
        added.append(nid)
    return added


def _add_contrast_rows(b: GraphBuilder, rows: Iterable[tuple[Any, ...]]) -> int:
    added = 0
    for l_slug, l_name, lc_slug, lc_name, r_slug, r_name, rc_slug, rc_name, axis, claim in rows:
        left = b.subject(str(l_slug), str(l_name), lc_slug and str(lc_slug), lc_name and str(lc_name))
        right = b.subject(str(r_slug), str(r_name), rc_slug and str(rc_slug), rc_name and str(rc_name))
        b.edge(left, right, EdgeType.CONTRASTS, str(axis))
        b.graph.edges[left, right, EdgeType.CONTRASTS.value]["claim"] = claim
        added += 1
    return added


_CONTRAST_FIELDS = ("left__slug", "left__short_name", "left_component__slug", "left_component__name",
                    "right__slug", "right__short_name", "right_component__slug", "right_component__name", "axis", "claim_id")


def map_graph(
    *, mechanism: str | None = None, verdict: str | None = None, limit: int = MAP_LIMIT, contrast_limit: int | None = None
) -> tuple[nx.MultiDiGraph[str], MapSummary]:
    """Works (or their components) joined to their mechanism, with the contrasts between them; with ``mechanism`` or
    ``verdict``, the works classified so, and every work a contrast sets against one of them, whatever its mechanism
    or verdict (a contrast across mechanisms is what the map is for), joined to its own mechanism.

    At most ``limit`` works of the filter's: first those in contrasts (the newest contrasts first, at most
    ``contrast_limit`` of them, half ``limit`` unless told), then the rest by name. Six queries whatever the size of
    the wiki; claims are never loaded, and what is held in memory is bounded by the limits.
    """
    contrast_limit = limit // 2 if contrast_limit is None else contrast_limit
    b = GraphBuilder()
    summary = MapSummary(limit=limit)
    chosen = Classification.objects.all()
    if mechanism:
        chosen = chosen.filter(mechanism=mechanism)
    if verdict:
        chosen = chosen.filter(verdict=verdict)
    contrasts = Contrast.objects.order_by("-id")
    if mechanism or verdict:
        # through an id subquery: joining classifications on both sides and DISTINCT over the product took seconds
        works = chosen.values("source_id")
        contrasts = contrasts.filter(Q(left_id__in=works) | Q(right_id__in=works))
    for mech, verdict_, n in chosen.values_list("mechanism", "verdict").annotate(n=Count("id")).order_by():
        summary.counts.setdefault(mech, Counter())[verdict_] += n
        summary.total += n
    for m in Mechanism:
        if not mechanism or m.value == mechanism:
            b.mechanism(m.value)
    contrast_rows = list(contrasts.values_list(*_CONTRAST_FIELDS)[:contrast_limit])
    summary.contrasts = contrasts.count()
    slugs = {str(row[i]) for row in contrast_rows for i in (0, 4)}
    # each contrast has two sides
    in_contrasts = list(Classification.objects.filter(source__slug__in=slugs).in_subject_order()
                        .values_list(*_SUBJECT_FIELDS)[:max(limit, 2 * contrast_limit)])

    def of_filter(row: tuple[str, str, str | None, str | None, str, str]) -> bool:
        return (not mechanism or row[4] == mechanism) and (not verdict or row[5] == verdict)

    # The filter's works, those in the contrasts drawn first, then the rest by name: one query however many there are.
    in_contrast_first = Case(When(source__slug__in=slugs, then=Value(0)), default=Value(1))
    drawn = _add_classification_rows(
        b, chosen.annotate(in_contrast_first=in_contrast_first)
        .order_by("in_contrast_first", *SUBJECT_ORDER).values_list(*_SUBJECT_FIELDS)[:limit],
        hubs=True,
    )
    # the other side of a contrast, classified otherwise than the filter asks
    partners = _add_classification_rows(b, [row for row in in_contrasts if not of_filter(row)], hubs=True)
    # a work in a contrast that nobody has classified yet is drawn as such, with its contrasts
    unclassified = {node_id("source", s) for s in slugs - {str(row[0]) for row in in_contrasts}}
    shown = set(drawn) | set(partners) | unclassified
    # a work classified per component (its components are drawn) that a contrast names as a whole is drawn as such
    for whole in {end for row in contrast_rows for end in _ends(row)} - shown:
        if whole in b.graph and b.graph.nodes[whole]["kind"] == "source":
            b.graph.nodes[whole]["parts"] = "1"
            shown.add(whole)
    summary.contrasts_drawn = _add_contrast_rows(b, (row for row in contrast_rows if _ends(row) <= shown))
    # a work classified per component is drawn as its components, each named after it
    b.graph.remove_nodes_from([n for n, d in b.graph.nodes(data=True) if d["kind"] == "source" and n not in shown])
    summary.drawn = len(drawn)
    if not mechanism and not verdict:
        summary.unclassified = Source.objects.classified(False).count()
    return b.graph, summary


def _ends(row: tuple[Any, ...]) -> set[str]:
    return {subject_node(str(row[0]), row[2] and str(row[2])), subject_node(str(row[4]), row[6] and str(row[6]))}


def _add_claims(b: GraphBuilder, claim_ids: Sequence[int], *, sources: bool = True) -> None:
    """The claims with their pages, every work they cite (with locators) and every work they are about."""
    if not claim_ids:
        return
    for pk, text, page_slug, page_title, anchor in Claim.objects.on_live_pages().filter(pk__in=claim_ids).values_list(
        "id", "text", "page__slug", "page__title", "anchor"
    ):
        b.edge(b.page(page_slug, page_title), b.claim(pk, text, page_slug=page_slug, anchor=anchor), EdgeType.CONTAINS)
    if not sources:
        return
    for claim_id, slug, name, locator in Citation.objects.filter(claim_id__in=claim_ids).order_by("claim_id", "position").values_list(
        "claim_id", "source__slug", "source__short_name", "locator"
    ):
        if node_id("claim", claim_id) in b.graph:
            b.edge(node_id("claim", claim_id), b.source(slug, name), EdgeType.CITES, locator)
    for claim_id, slug, name in Claim.about.through.objects.filter(claim_id__in=claim_ids).values_list(
        "claim_id", "source__slug", "source__short_name"
    ):
        if node_id("claim", claim_id) in b.graph:
            b.edge(node_id("claim", claim_id), b.source(slug, name), EdgeType.ABOUT)


def _decorate_sources(b: GraphBuilder) -> None:
    """Mechanism and verdict of every work or component in the graph; a work classified only per component is marked ``parts`` (one query)."""
    slugs = [split_node_id(n)[1] for n, d in b.graph.nodes(data=True) if d["kind"] == "source" and not d["verdict"]]
    if not slugs:
        return
    for slug, component, mechanism, verdict in Classification.objects.filter(source__slug__in=slugs).order_by(
        "component_id"
    ).values_list("source__slug", "component__slug", "mechanism", "verdict"):
        node = b.graph.nodes[node_id("source", slug)]
        part = subject_node(slug, component)
        if component is not None and part in b.graph and not b.graph.nodes[part]["verdict"]:
            b.graph.nodes[part].update(mechanism=mechanism, verdict=verdict)
        if component is None:
            node.update(mechanism=mechanism, verdict=verdict, parts="")
        elif not node["verdict"]:
            # classified only per component: the work is not "unclassified", its parts are
            node["parts"] = "1"


def _either_side(slugs: Sequence[str]) -> Q:
    """Contrasts with a side among ``slugs``, through the id subquery so that both foreign-key indexes are used."""
    ids = Source.objects.filter(slug__in=slugs).values("id")
    return Q(left_id__in=ids) | Q(right_id__in=ids)


def contrast_graph(subjects: Sequence[SubjectRef | str]) -> nx.MultiDiGraph[str]:
    """The works (or components) set side by side, their components and mechanisms, the contrasts
    that involve them, the claims that mention at least one of them (those naming several first),
    and every other work those claims or contrasts bring in: the shared neighbours.
    """
    refs = [s if isinstance(s, SubjectRef) else SubjectRef.parse(s) for s in subjects]
    slugs = sorted({r.source for r in refs})
    b = GraphBuilder()
    rows = Classification.objects.filter(source__slug__in=slugs).in_subject_order()
    _add_classification_rows(b, rows.values_list(*_SUBJECT_FIELDS), hubs=True)
    for slug, name in Source.objects.filter(slug__in=slugs).values_list("slug", "short_name"):
        b.source(slug, name)
    contrast_rows = list(
        Contrast.objects.filter(_either_side(slugs)).order_by("id").values_list(*_CONTRAST_FIELDS)[:NEIGHBOUR_LIMIT]
    )
    _add_contrast_rows(b, contrast_rows)
    touching: dict[int, set[str]] = {}
    candidates = [
        *Citation.objects.filter(source__slug__in=slugs, claim__page__deleted_at__isnull=True).values_list(
            "claim_id", "source__slug")[:CANDIDATE_LIMIT],
        *Claim.about.through.objects.filter(source__slug__in=slugs, claim__page__deleted_at__isnull=True).values_list(
            "claim_id", "source__slug")[:CANDIDATE_LIMIT],
    ]
    for claim_id, slug in candidates:
        touching.setdefault(claim_id, set()).add(slug)
    contrast_claims = {int(row[9]) for row in contrast_rows if row[9] is not None}
    ranked = sorted(touching, key=lambda c: (c not in contrast_claims, -len(touching[c]), c))
    _add_claims(b, ranked[:CONTRAST_CLAIM_LIMIT] + sorted(contrast_claims - set(ranked[:CONTRAST_CLAIM_LIMIT])))
    _decorate_sources(b)
    return b.graph


def contrast_priority(graph: nx.MultiDiGraph[str], subjects: Sequence[SubjectRef]) -> list[str]:
    """Which nodes to keep when the picture must be cut: the subjects, their works, contrasts, claims, the rest."""
    first = [s.node for s in subjects] + [node_id("source", s.source) for s in subjects]
    order = {"component": 1, "source": 1, "mechanism": 2, "claim": 3, "page": 4, "question": 5}
    rest = sorted((n for n in graph if n not in first), key=lambda n: (order.get(graph.nodes[n]["kind"], 9), content_key(graph, n)))
    return list(dict.fromkeys([n for n in first if n in graph] + rest))
