from __future__ import annotations

from typing import Any

import networkx as nx
import pytest

from tests.factories import ContrastWiki, make_page, make_source
from wiki.graph import EdgeType, SubjectRef, UnknownNode, contrast_graph, draw, local_graph, map_graph
from wiki.graph.compare import comparison_for
from wiki.graph.labels import text_px, wrap
from wiki.graph.layout import MAX_NODES, MIN_FRAME, NARROW_WIDTH, shorten
from wiki.graph.page import page_neighbourhood, works_first_priority
from wiki.models import Citation, Claim
from wiki.services.deletion import page_delete

pytestmark = pytest.mark.django_db


def _edges(graph: nx.MultiDiGraph[str], kind: str) -> dict[tuple[str, str], dict[str, Any]]:
    return {(u, v): d for u, v, d in graph.edges(data=True) if d["type"] == kind}


def test_gripforge_contrasts_with_polarharness_on_its_axis(contrast_wiki: ContrastWiki) -> None:
    graph = contrast_graph(["gripforge", "polarharness"])

    contrasts = _edges(graph, "contrasts")
    axis = contrasts[("source:gripforge", "source:polarharness")]["label"]
    assert "policy update vs external harness evolution" in axis
    assert graph.nodes["source:gripforge"]["mechanism"] == "policy_gradient"
    assert graph.nodes["source:gripforge"]["verdict"] == "strict"
    assert graph.nodes["source:polarharness"]["mechanism"] == "harness"


def test_contrast_of_gripforge_and_polarharness_brings_in_recurva_as_shared_neighbour(contrast_wiki: ContrastWiki) -> None:
    graph = contrast_graph(["gripforge", "polarharness"])

    assert "source:recurva" in graph
    assert ("source:gripforge", "source:recurva") in _edges(graph, "contrasts")
    claim = _edges(graph, "contrasts")[("source:gripforge", "source:polarharness")]["claim"]
    about = {v for (u, v) in _edges(graph, "about") if u == f"claim:{claim}"}
    assert {"source:gripforge", "source:polarharness", "source:recurva"} <= about


def test_herder_has_two_components_classified_apart(contrast_wiki: ContrastWiki) -> None:
    graph = local_graph("source:herder", depth=1)

    parts = {u for (u, v) in _edges(graph, "component_of") if v == "source:herder"}
    assert parts == {"component:herder/branch-grpo", "component:herder/overseer-cro"}
    assert graph.nodes["component:herder/branch-grpo"]["verdict"] == "strict"
    assert graph.nodes["component:herder/overseer-cro"]["verdict"] == "not_strict"
    assert ("component:herder/branch-grpo", "mechanism:policy_gradient") in _edges(graph, "classified_as")


def test_tasksmith_and_gripforge_differ_exactly_on_the_update_fact(contrast_wiki: ContrastWiki) -> None:
    comparison = comparison_for([SubjectRef("tasksmith"), SubjectRef("gripforge")])

    rubric = {row.key for row in comparison.rows if row.group == "rubric" and row.differs}
    assert rubric == {"rl_update"}


def test_a_work_alone_with_components_becomes_one_column_per_component(contrast_wiki: ContrastWiki) -> None:
    comparison = comparison_for([SubjectRef("herder"), SubjectRef("herder")])

    # Components are ordered by name: "Branch-GRPO" sorts before "overseer and CRO".
    assert [str(c.ref) for c in comparison.columns] == ["herder:branch-grpo", "herder:overseer-cro"]
    assert "verdict" in comparison.differing


def test_unknown_work_and_component_are_reported(contrast_wiki: ContrastWiki) -> None:
    comparison = comparison_for([SubjectRef("gripforge"), SubjectRef("no-such-work"), SubjectRef("herder", "nope")])

    assert comparison.unknown == ["no-such-work", "herder:nope"]
    assert [c.name for c in comparison.columns] == ["GripForge"]


def test_citation_edges_carry_their_locator(contrast_wiki: ContrastWiki) -> None:
    graph = local_graph("source:tasksmith", depth=1, edge_types=[EdgeType.CITES])

    locators = [d["label"] for (u, v), d in _edges(graph, "cites").items() if v == "source:tasksmith"]
    assert "§3.1 / §5" in locators
    assert not _edges(graph, "about")


def test_page_neighbourhood_holds_its_claims_links_and_questions(contrast_wiki: ContrastWiki) -> None:
    graph = local_graph("page:contrast-wiki", depth=1)

    kinds = {d["kind"] for _, d in graph.nodes(data=True)}
    assert {"claim", "page", "question"} <= kinds
    assert any(u == "page:contrast-wiki" for (u, v) in _edges(graph, "links_to"))
    assert all(graph.nodes[n]["url"] for n in graph)


def test_two_steps_reach_further_than_one(contrast_wiki: ContrastWiki) -> None:
    one = local_graph("source:gripforge", depth=1)
    two = local_graph("source:gripforge", depth=2)

    assert set(one) < set(two)
    assert "page:contrast-wiki" not in one and "page:contrast-wiki" in two


def test_unknown_centre_is_refused(contrast_wiki: ContrastWiki) -> None:
    with pytest.raises(UnknownNode):
        local_graph("source:no-such-work")
    with pytest.raises(UnknownNode):
        local_graph("mechanism:alchemy")


def test_map_joins_every_drawn_work_to_its_mechanism_and_draws_contrasts(contrast_wiki: ContrastWiki) -> None:
    graph, summary = map_graph()

    works = [n for n, d in graph.nodes(data=True) if d["kind"] in {"source", "component"} and d["verdict"]]
    # seven works classified as a whole and the two classified components of another
    assert len(works) == summary.drawn == summary.total == 9
    spokes = _edges(graph, "classified_as")
    assert all(any(u == w for (u, _) in spokes) for w in works)
    assert ("source:gripforge", "source:polarharness") in _edges(graph, "contrasts")


def test_map_draws_a_work_nobody_classified_as_unclassified_with_its_contrasts(contrast_wiki: ContrastWiki) -> None:
    graph, _ = map_graph()

    guide = graph.nodes["source:harness-guide"]
    assert guide["verdict"] == "" and guide["mechanism"] == ""
    assert any("source:harness-guide" in pair for pair in _edges(graph, "contrasts"))
    assert draw(graph, positions="map", limit=len(graph)).nodes[0].kind_label  # drawable
    assert "Unclassified work" in {n.kind_label for n in draw(graph, positions="map", limit=len(graph)).nodes}
    assert not any(d["kind"] == "claim" for _, d in graph.nodes(data=True))


@pytest.mark.django_db
def test_a_work_alone_is_drawn_at_the_size_of_any_other_drawing() -> None:
    source = make_source(short_name="Alone")
    drawing = draw(local_graph(f"source:{source.slug}"), center=f"source:{source.slug}", positions="radial")
    assert [len(frame.nodes) for frame in drawing.frames] == [1, 1]
    for frame, width in zip(drawing.frames, (MIN_FRAME[0], NARROW_WIDTH), strict=True):
        # Fitting the frame to the page scales it as it scales a drawing of many nodes, not to headline size.
        assert (frame.width, frame.height) == (width, MIN_FRAME[1])
        node = frame.nodes[0]
        assert frame.x0 < node.x - node.node.size < node.x + node.node.size < frame.x0 + frame.width
        assert abs((frame.x0 + frame.width / 2) - node.x) < 1


@pytest.mark.django_db
def test_a_work_with_one_claim_is_drawn_a_line_apart_not_in_opposite_corners() -> None:
    source = make_source(short_name="Lonely Work", title="Lonely Work: A Study")
    make_page(slug="lonely", title="Lonely", body="## 关键要点\n\n- 只有一条论断。（来源：Lonely Work: A Study，p.1）\n")
    center = f"source:{source.slug}"
    graph = local_graph(center)
    drawing = draw(graph, priority=sorted(graph, key=lambda n: n != center), center=center)
    assert len(drawing.nodes) == 2
    wide = drawing.frames[0]
    (a, b) = wide.nodes
    # Spread over the whole 780 × 600 frame, the two sat about 980 units apart.
    assert ((a.x - b.x) ** 2 + (a.y - b.y) ** 2) ** 0.5 < 400
    assert wide.width <= 600


def test_drawing_is_cut_at_fifty_nodes_and_says_how_many_more(contrast_wiki: ContrastWiki) -> None:
    points = "\n".join(f"- 第 {n} 条要点。（来源：Crowded Work {n // 2}: A Study，p.{n + 1}）" for n in range(60))
    page = make_page(slug="crowded", title="Crowded", body=f"见 [[{contrast_wiki.page.title}]]。\n\n## 关键要点\n\n{points}\n")
    graph = local_graph(f"page:{page.slug}", depth=2)
    drawing = draw(graph)

    assert len(graph) > MAX_NODES
    assert len(drawing.nodes) == MAX_NODES
    assert drawing.hidden == len(graph) - MAX_NODES == sum(drawing.left_out.values())
    assert [f.name for f in drawing.frames] == ["wide", "narrow"]
    for frame in drawing.frames:
        assert len(frame.nodes) == MAX_NODES
        assert all(frame.x0 <= p.x <= frame.x0 + frame.width and frame.y0 <= p.y <= frame.y0 + frame.height for p in frame.nodes)


def test_page_neighbourhood_is_every_work_its_claims_cite_then_contrasts_then_pages(contrast_wiki: ContrastWiki) -> None:
    graph = page_neighbourhood("contrast-wiki")
    assert graph is not None
    cited = set(Citation.objects.filter(claim__page__slug="contrast-wiki", claim__is_orphaned=False).values_list("source__slug", flat=True))
    about = set(Claim.about.through.objects.filter(claim__page__slug="contrast-wiki").values_list("source__slug", flat=True))
    works = {n.split(":", 1)[1] for n, d in graph.nodes(data=True) if d["kind"] == "source"}
    assert cited | about <= works
    assert not any(d["kind"] == "claim" for _, d in graph.nodes(data=True))
    edge = graph.edges["page:contrast-wiki", "source:gripforge", "cites"]
    assert edge["claims"] and all(url.startswith("/wiki/contrast-wiki/#") for _, url in edge["claims"])
    assert ("source:gripforge", "source:polarharness") in _edges(graph, "contrasts")
    assert graph.nodes["source:gripforge"]["mechanism"] == "policy_gradient"

    order = works_first_priority(graph, "page:contrast-wiki")
    kinds = [graph.nodes[n]["kind"] for n in order]
    assert order[0] == "page:contrast-wiki"
    last_work = max(i for i, k in enumerate(kinds) if k == "source")
    first_wanted = min(i for i, n in enumerate(order) if graph.nodes[n].get("wanted"))
    assert last_work < first_wanted
    drawing = draw(graph, priority=order, center="page:contrast-wiki", positions="radial")
    assert {f"source:{w}" for w in cited} <= {n.id for n in drawing.nodes}
    if drawing.hidden:
        assert "wanted page" in drawing.left_out and "work" not in drawing.left_out


def test_links_from_a_deleted_page_are_left_out_of_both_page_graphs() -> None:
    make_page(slug="hub", title="Hub", body="See [[Gone]].")
    make_page(slug="kept", title="Kept", body="See [[Hub]].")
    page_delete(page=make_page(slug="gone", title="Gone", body="See [[Hub]] and [[Elsewhere]]."), user=None,
                reason="Spam page")

    for graph in (local_graph("page:hub", depth=2), page_neighbourhood("hub", depth=2)):
        assert graph is not None
        assert graph.has_edge("page:kept", "page:hub")
        # The deleted page is still a target of the hub's link, but links from it count for nothing.
        assert graph.has_edge("page:hub", "page:gone")
        assert not graph.has_edge("page:gone", "page:hub")
        assert "page:elsewhere" not in graph


def test_labels_wrap_between_words_and_abbreviate_with_an_ellipsis() -> None:
    assert wrap("Reward Misspecification", 150) == ("Reward", "Misspecification")
    assert wrap("SkillForge", 150) == ("SkillForge",)
    lines = wrap("FACET 是一个重要的非严格对照：用 verifier 筛选轨迹做 SFT，没有用环境回报更新 agent policy", 124)
    assert len(lines) == 2 and lines[-1].endswith("…")
    assert all(text_px(line) <= 124 for line in lines)


def test_a_name_of_one_word_too_long_for_a_phones_label_is_broken_where_its_parts_meet_not_cut() -> None:
    assert wrap("FlashREINFORCE", 108) == ("Flash", "REINFORCE")
    assert wrap("FlashREINFORCE", 150) == ("FlashREINFORCE",)
    assert wrap("Qwen2.5-Coder-32B-Instruct", 108) == ("Qwen2.5-Coder-", "32B-Instruct")
    # one line only: abbreviated as much of the word as fits, not at its first part
    assert wrap("FlashREINFORCE", 108, max_lines=1) == ("FlashREINFOR…",)


def test_no_two_placed_labels_overlap_in_either_frame(contrast_wiki: ContrastWiki) -> None:
    from wiki.devtools.generate import wiki_generate

    wiki_generate(works=20, claims=20, pages=2, seed=5)  # a map as crowded as the wiki's own
    graph, summary = map_graph()
    assert summary.drawn >= 25
    for frame in draw(graph, positions="map", limit=len(graph)).frames:
        boxes = []
        for p in frame.nodes:
            half = max(text_px(line, 14.3 if p.node.kind == "mechanism" else 12) for line in p.lines) / 2
            boxes.append((p.label_x - half, p.label_y - 12, p.label_x + half, p.label_y - 12 + 15 * len(p.lines)))
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)


def test_labels_are_cut_by_display_width_counting_cjk_twice() -> None:
    assert shorten("SkillForge") == "SkillForge"
    assert shorten("论文没有用环境回报更新策略而是只做监督微调", limit=10) == "论文没有用…"


def test_dropped_questions_are_left_out_of_neighbourhoods(contrast_wiki: ContrastWiki) -> None:
    from tests.factories import make_question
    from wiki.models import Page

    page = Page.objects.get(slug="contrast-wiki")
    kept = make_question(page=page, title="Still open")
    dropped = make_question(page=page, title="Dropped", status="dropped")
    graph = local_graph("page:contrast-wiki", depth=1, edge_types=[EdgeType.RAISES])

    assert f"question:{kept.pk}" in graph
    assert f"question:{dropped.pk}" not in graph


def _boxes_of(frame: Any) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Every label of ``frame`` (node labels and contrast axes) as a box, in the drawing's units."""
    boxes = []
    for p in frame.nodes:
        half = max(text_px(line, 14.3 if p.node.kind == "mechanism" else 12) for line in p.lines) / 2
        boxes.append((p.node.label, (p.label_x - half, p.label_y - 12, p.label_x + half, p.label_y - 12 + 15 * len(p.lines))))
        boxes.append((p.node.id, (p.x - p.node.size, p.y - p.node.size, p.x + p.node.size, p.y + p.node.size)))
    for a in frame.axes:
        if a.marker:  # a numbered disc on the line
            boxes.append((str(a.marker), (a.x - 8, a.y - 8, a.x + 8, a.y + 8)))
            continue
        half = max(text_px(line) for line in a.lines) / 2
        boxes.append((" ".join(a.lines), (a.x - half, a.y - 12, a.x + half, a.y - 12 + 15 * len(a.lines))))
    return boxes


def test_contrast_lines_are_labelled_with_their_axis_beside_the_line_overlapping_no_label(contrast_wiki: ContrastWiki) -> None:
    from django.utils import translation

    refs = [SubjectRef("gripforge"), SubjectRef("polarharness")]
    with translation.override("en"):
        drawing = draw(contrast_graph(refs), priority=None, label_contrasts=True)
    contrasts = [e for e in drawing.edges if e.type == EdgeType.CONTRASTS.value]
    for frame in drawing.frames:
        assert {(a.edge.source.id, a.edge.target.id) for a in frame.axes} == {(e.source.id, e.target.id) for e in contrasts}
        pair = next(a for a in frame.axes if {a.edge.source.id, a.edge.target.id} == {"source:gripforge", "source:polarharness"})
        # the reader's half of a bilingual axis, whole on three lines
        assert " ".join(pair.lines) == "policy update vs external harness evolution"
        boxes = [b for _, b in _boxes_of(frame)]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)
        x0, y0, *_ = (float(v) for v in frame.view_box.split())
        assert all(x0 <= box[0] and box[2] <= x0 + frame.width and y0 <= box[1] and box[3] <= y0 + frame.height
                   for _, box in _boxes_of(frame))
    with translation.override("zh-hans"):
        chinese = draw(contrast_graph(refs), priority=None, label_contrasts=True)
    assert "策略更新vs外部harness演化" in {"".join(a.lines).replace(" ", "") for a in chinese.wide.axes}
    # other drawings keep their lines unlabelled
    assert all(not frame.axes for frame in draw(contrast_graph(refs)).frames)


def _passes_over(frame: Any, *, straight: bool = False) -> list[tuple[str, str, str]]:
    """(line's ends, node) for each line of ``frame`` that passes over a node other than its ends."""
    import numpy as np

    from wiki.graph.routing import crossed, curve_points

    found = []
    for placed in frame.edges:
        ends = (placed.edge.source.id, placed.edge.target.id)
        others = [p for p in frame.nodes if p.node.id not in ends]
        discs = np.array([(p.x, p.y, p.node.size) for p in others]).reshape(-1, 3)
        if straight or placed.cx is None:
            points = np.array([[placed.x1, placed.y1], [placed.x2, placed.y2]])
        else:
            points = curve_points(placed.x1, placed.y1, placed.cx, placed.cy, placed.x2, placed.y2)
        found += [(*ends, p.node.id) for p, hit in zip(others, crossed(points, discs), strict=True) if hit]
    return found


def test_lines_bend_around_the_nodes_they_would_pass_over(contrast_wiki: ContrastWiki) -> None:
    from wiki.devtools.generate import wiki_generate
    from wiki.graph.routing import curve_points

    wiki_generate(works=20, claims=20, pages=2, seed=5)
    graph, _ = map_graph()
    drawing = draw(graph, positions="map", limit=len(graph))
    wide, narrow = drawing.frames
    assert len(_passes_over(wide, straight=True)) >= 3  # drawn straight, these lines would cross other works
    assert _passes_over(wide) == []
    assert len(_passes_over(narrow)) < len(_passes_over(narrow, straight=True))
    bent = [p for p in wide.edges if p.cx is not None]
    assert bent and all(f" Q{p.cx} {p.cy} " in p.path for p in bent)
    # every curve stays inside the picture
    for p in bent:
        assert p.cx is not None and p.cy is not None
        points = curve_points(p.x1, p.y1, p.cx, p.cy, p.x2, p.y2)
        assert wide.x0 <= points[:, 0].min() and points[:, 0].max() <= wide.x0 + wide.width
        assert wide.y0 <= points[:, 1].min() and points[:, 1].max() <= wide.y0 + wide.height


def test_a_line_with_its_axis_written_beside_it_stays_straight(contrast_wiki: ContrastWiki) -> None:
    drawing = draw(contrast_graph([SubjectRef("gripforge"), SubjectRef("polarharness")]), priority=None, label_contrasts=True)
    for frame in drawing.frames:
        with_axis = {id(a.edge) for a in frame.axes}
        assert with_axis and all(p.cx is None for p in frame.edges if id(p.edge) in with_axis)


def test_bend_clears_a_node_on_the_line_and_leaves_a_clear_line_straight() -> None:
    import numpy as np

    from wiki.graph.routing import bend, crossed, curve_points

    bounds = (-200.0, -200.0, 200.0, 200.0)
    on_the_line = np.array([[0.0, 0.0, 8.0]])
    control = bend(-100.0, 0.0, 100.0, 0.0, on_the_line, bounds)
    assert control is not None
    assert not crossed(curve_points(-100.0, 0.0, *control, 100.0, 0.0), on_the_line).any()
    assert bend(-100.0, 0.0, 100.0, 0.0, np.array([[0.0, 40.0, 8.0]]), bounds) is None
    # no room to bow inside the picture: the line stays straight
    assert bend(-100.0, 0.0, 100.0, 0.0, on_the_line, (-100.0, -1.0, 100.0, 1.0)) is None


def test_chinese_labels_break_between_words_and_scripts_not_before_their_last_character() -> None:
    assert wrap("参数空间进化策略", 108, font_px=14.3) == ("参数空间", "进化策略")
    assert wrap("harness/脚手架", 108, font_px=14.3) == ("harness/", "脚手架")
    assert wrap("CUA 开源项目审计 2026-10-22", 108) == ("CUA 开源项目审计", "2026-10-22")
    # a text longer than two lines still fills the first and ends in an ellipsis
    first, last = wrap("FACET 是一个重要的非严格对照：用 verifier 筛选轨迹做 SFT，没有用环境回报更新 agent policy", 124)
    assert text_px(first) > 100 and last.endswith("…")


def test_a_wrapped_label_never_opens_a_line_with_closing_punctuation_nor_ends_one_with_opening_punctuation() -> None:
    # as drawn around a work whose claims read alike until their experiment and source
    assert wrap("…（实验 4515）。（来源：RewardCritic-G0R1-114，pp.3-4）", 150) == ("…（实验", "4515）。（来源：Rewa…")
    assert wrap("…长程网页任务的动作序列，没有参数更新（实验 4400）", 150) == ("…长程网页任务的动作序", "列，没有参数更新（实验…")
    for text in ("…（实验 4515）。（来源：RewardCritic-G0R1-114，pp.3-4）", "它说“奖励函数”是关键，不是“环境”。",
                 "用 GRPO（组相对策略优化）更新 agent 的策略", "SkillForge（GRPO）与 StarHarness（harness）"):
        for width in (108.0, 150.0):
            lines = wrap(text, width)
            assert all(text_px(line) <= width for line in lines)
            assert not any(line[0] in "）)]」』】》”’。，、：；！？,.:;!?" for line in lines[1:]), lines
            assert not any(line[-1] in "（([「『【《“‘" for line in lines), lines


def test_the_compare_picker_orders_works_by_name_whatever_their_case() -> None:
    from wiki.graph.compare import pick_choices

    for name in ("qwen3-runtime", "RLinf", "AAR", "Agent Lightning", "prime-rl"):
        make_source(short_name=name, title=f"{name} paper")

    assert [name for _, name in pick_choices("", limit=10)] == ["AAR", "Agent Lightning", "prime-rl", "qwen3-runtime", "RLinf"]


def test_a_link_to_a_glossary_term_is_drawn_leading_to_the_term_not_as_a_wanted_page() -> None:
    from wiki.services.glossary import glossary_term_create

    glossary_term_create(fields={"slug": "reward-hacking", "name_zh": "奖励黑客", "name_en": "reward hacking"})
    make_page(slug="notes", title="Notes", body="See [[奖励黑客]] and [[Not Written Yet]].")

    graph = page_neighbourhood("notes")

    assert graph is not None
    term, missing = graph.nodes["page:奖励黑客"], graph.nodes["page:not-written-yet"]
    assert not term.get("wanted") and term["url"] == "/glossary/reward-hacking/"
    assert missing.get("wanted") == "1"


def test_a_claims_neighbourhood_holds_the_contrasts_it_is_the_evidence_for(contrast_wiki: ContrastWiki) -> None:
    from wiki.models import Contrast

    contrast = Contrast.objects.select_related("left", "right").get(axis__startswith="SFT vs GRPO")
    assert contrast.claim_id is not None
    ends = (f"source:{contrast.left.slug}", f"source:{contrast.right.slug}")

    graph = local_graph(f"claim:{contrast.claim_id}", depth=1)
    only_contrasts = local_graph(f"claim:{contrast.claim_id}", depth=1, edge_types=[EdgeType.CONTRASTS])
    without = local_graph(f"claim:{contrast.claim_id}", depth=1, edge_types=[EdgeType.CITES, EdgeType.ABOUT])

    assert _edges(graph, "contrasts")[ends]["label"] == contrast.axis
    assert ends in _edges(only_contrasts, "contrasts")
    assert not _edges(without, "contrasts")


def test_two_steps_from_a_work_draw_its_claims_and_pages_before_the_works_that_only_share_its_mechanism(
        contrast_wiki: ContrastWiki) -> None:
    from tests.factories import make_classification
    from wiki.graph import distance_priority

    for n in range(60):
        make_classification(make_source(slug=f"sibling-{n:02d}", short_name=f"Sibling {n:02d}"))

    graph = local_graph("source:gripforge", depth=2)
    drawing = draw(graph, priority=distance_priority(graph, "source:gripforge"), center="source:gripforge")

    drawn = {n.id for n in drawing.nodes}
    assert {n for n, d in graph.nodes(data=True) if d["kind"] in {"claim", "page", "question"}} <= drawn
    # the works it is contrasted with, and those its claims cite, are drawn; those that only share its mechanism wait
    assert {"source:polarharness", "source:recurva", "source:tasksmith", "source:evoopt", "mechanism:policy_gradient"} <= drawn
    # left out: what hangs off a mechanism hub (other works, a component, the hubs of the works drawn)
    assert drawing.hidden and set(drawing.left_out) <= {"work", "component of a work", "mechanism"}
    assert sum(n.id.startswith("source:sibling-") for n in drawing.omitted) > 10


def test_claims_drawn_around_a_work_do_not_repeat_its_name_and_read_apart(contrast_wiki: ContrastWiki) -> None:
    from wiki.graph import distance_priority
    from wiki.graph.labels import told_apart, without_name

    graph = local_graph("source:gripforge", depth=1)
    drawing = draw(graph, priority=distance_priority(graph, "source:gripforge"), center="source:gripforge")
    [claim] = [p for p in drawing.frames[0].nodes if p.node.label.startswith("GripForge 是严格")]

    assert " ".join(claim.lines).startswith("是严格 Agentic RL")
    assert claim.node.title.endswith(claim.node.label) and claim.abbreviated  # the whole text on hover, and in the list
    assert without_name("GripForge: trains with GRPO", ["gripforge"]) == "trains with GRPO"
    assert without_name("GripForger trains", ["GripForge"]) == "GripForger trains"
    assert without_name("GripForge", ["GripForge"]) == "GripForge"
    # the name as the possessor goes with its mark: the rest names the part of the work the claim is about
    assert without_name("Herder 的 Branch-GRPO 是严格正例", ["Herder"]) == "Branch-GRPO 是严格正例"
    assert without_name("Herder's Branch-GRPO is strict", ["herder"]) == "Branch-GRPO is strict"
    assert without_name("Herder 的确更新了 policy", ["Herder"]) == "的确更新了 policy"
    alike = {"a": "是严格 Agentic RL 的正例：GRPO 依据网页搜索中的 outcome reward 更新 agent policy（实验 1）",
             "b": "是严格 Agentic RL 的正例：GRPO 依据终端任务中的 outcome reward 更新 agent policy（实验 2）",
             "c": "FACET 是一个反例"}
    apart = told_apart(alike, lambda text: wrap(text, 108))
    assert apart == {"a": "…GRPO 依据网页搜索中的 outcome reward 更新 agent policy（实验 1）",
                     "b": "…GRPO 依据终端任务中的 outcome reward 更新 agent policy（实验 2）", "c": "FACET 是一个反例"}


def test_the_map_draws_a_contrast_naming_a_work_classified_per_component_as_a_whole(contrast_wiki: ContrastWiki) -> None:
    from tests.factories import make_contrast

    make_contrast(contrast_wiki.split, contrast_wiki.grpo, axis="meta-agent vs policy")

    graph, summary = map_graph()

    assert ("source:herder", "source:gripforge") in _edges(graph, "contrasts")
    assert graph.nodes["source:herder"]["parts"] == "1" and not graph.nodes["source:herder"]["verdict"]
    assert ("component:herder/branch-grpo", "source:herder") in _edges(graph, "component_of")
    assert summary.contrasts_drawn == summary.contrasts and not summary.cut
