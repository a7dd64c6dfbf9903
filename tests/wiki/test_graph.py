from __future__ import annotations

import pytest

from wiki.graph import EdgeType, SubjectRef, UnknownNode, contrast_graph, draw, local_graph, map_graph
from wiki.graph.compare import comparison_for
from wiki.graph.layout import MAX_NODES, shorten

pytestmark = pytest.mark.django_db


def _edges(graph, kind: str) -> dict[tuple[str, str], dict]:  # type: ignore[no-untyped-def]
    return {(u, v): d for u, v, d in graph.edges(data=True) if d["type"] == kind}


def test_skillforge_contrasts_with_starharness_on_its_axis(seed: None) -> None:
    graph = contrast_graph(["skillforge", "starharness"])

    contrasts = _edges(graph, "contrasts")
    axis = contrasts[("source:skillforge", "source:starharness")]["label"]
    assert "policy update vs external harness evolution" in axis
    assert graph.nodes["source:skillforge"]["mechanism"] == "policy_gradient"
    assert graph.nodes["source:skillforge"]["verdict"] == "strict"
    assert graph.nodes["source:starharness"]["mechanism"] == "harness"


def test_contrast_of_skillforge_and_starharness_brings_in_recuris_as_shared_neighbour(seed: None) -> None:
    graph = contrast_graph(["skillforge", "starharness"])

    assert "source:recuris" in graph
    assert ("source:skillforge", "source:recuris") in _edges(graph, "contrasts")
    claim = _edges(graph, "contrasts")[("source:skillforge", "source:starharness")]["claim"]
    about = {v for (u, v) in _edges(graph, "about") if u == f"claim:{claim}"}
    assert {"source:skillforge", "source:starharness", "source:recuris"} <= about


def test_shepherd_has_two_components_classified_apart(seed: None) -> None:
    graph = local_graph("source:shepherd", depth=1)

    parts = {u for (u, v) in _edges(graph, "component_of") if v == "source:shepherd"}
    assert parts == {"component:shepherd/tree-grpo", "component:shepherd/supervisor-cro"}
    assert graph.nodes["component:shepherd/tree-grpo"]["verdict"] == "strict"
    assert graph.nodes["component:shepherd/supervisor-cro"]["verdict"] == "not_strict"
    assert ("component:shepherd/tree-grpo", "mechanism:policy_gradient") in _edges(graph, "classified_as")


def test_facet_and_skillforge_differ_exactly_on_the_update_fact(seed: None) -> None:
    comparison = comparison_for([SubjectRef("facet"), SubjectRef("skillforge")])

    rubric = {row.key for row in comparison.rows if row.group == "rubric" and row.differs}
    assert rubric == {"rl_update"}


def test_a_work_alone_with_components_becomes_one_column_per_component(seed: None) -> None:
    comparison = comparison_for([SubjectRef("shepherd"), SubjectRef("shepherd")])

    # Components are ordered by name: "Tree-GRPO" sorts before "supervisor and CRO".
    assert [str(c.ref) for c in comparison.columns] == ["shepherd:tree-grpo", "shepherd:supervisor-cro"]
    assert "verdict" in comparison.differing


def test_unknown_work_and_component_are_reported(seed: None) -> None:
    comparison = comparison_for([SubjectRef("skillforge"), SubjectRef("no-such-work"), SubjectRef("shepherd", "nope")])

    assert comparison.unknown == ["no-such-work", "shepherd:nope"]
    assert [c.name for c in comparison.columns] == ["SkillForge"]


def test_citation_edges_carry_their_locator(seed: None) -> None:
    graph = local_graph("source:facet", depth=1, edge_types=[EdgeType.CITES])

    locators = [d["label"] for (u, v), d in _edges(graph, "cites").items() if v == "source:facet"]
    assert "§3.1 / §5" in locators
    assert not _edges(graph, "about")


def test_page_neighbourhood_holds_its_claims_links_and_questions(seed: None) -> None:
    graph = local_graph("page:agentic-rl", depth=1)

    kinds = {d["kind"] for _, d in graph.nodes(data=True)}
    assert {"claim", "page", "question"} <= kinds
    assert any(u == "page:agentic-rl" for (u, v) in _edges(graph, "links_to"))
    assert all(graph.nodes[n]["url"] for n in graph)


def test_two_steps_reach_further_than_one(seed: None) -> None:
    one = local_graph("source:skillforge", depth=1)
    two = local_graph("source:skillforge", depth=2)

    assert set(one) < set(two)
    assert "page:agentic-rl" not in one and "page:agentic-rl" in two


def test_unknown_centre_is_refused(seed: None) -> None:
    with pytest.raises(UnknownNode):
        local_graph("source:no-such-work")
    with pytest.raises(UnknownNode):
        local_graph("mechanism:alchemy")


def test_map_joins_every_drawn_work_to_its_mechanism_and_draws_contrasts(seed: None) -> None:
    graph, summary = map_graph()

    works = [n for n, d in graph.nodes(data=True) if d["kind"] in {"source", "component"}]
    assert len(works) == summary.drawn == summary.total == 25
    spokes = _edges(graph, "classified_as")
    assert all(any(u == w for (u, _) in spokes) for w in works)
    assert ("source:skillforge", "source:starharness") in _edges(graph, "contrasts")
    assert not any(d["kind"] == "claim" for _, d in graph.nodes(data=True))


def test_drawing_is_cut_at_fifty_nodes_and_says_how_many_more(seed: None) -> None:
    graph = local_graph("page:agentic-rl", depth=2)
    drawing = draw(graph)

    assert len(graph) > MAX_NODES
    assert len(drawing.nodes) == MAX_NODES
    assert drawing.hidden == len(graph) - MAX_NODES
    assert all(0 <= n.x <= drawing.width and 0 <= n.y <= drawing.height for n in drawing.nodes)


def test_labels_are_cut_by_display_width_counting_cjk_twice() -> None:
    assert shorten("SkillForge") == "SkillForge"
    assert shorten("论文没有用环境回报更新策略而是只做监督微调", limit=10) == "论文没有用…"


def test_dropped_questions_are_left_out_of_neighbourhoods(seed: None) -> None:
    from tests.factories import make_question
    from wiki.models import Page

    page = Page.objects.get(slug="agentic-rl")
    kept = make_question(page=page, title="Still open")
    dropped = make_question(page=page, title="Dropped", status="dropped")
    graph = local_graph("page:agentic-rl", depth=1, edge_types=[EdgeType.RAISES])

    assert f"question:{kept.pk}" in graph
    assert f"question:{dropped.pk}" not in graph
