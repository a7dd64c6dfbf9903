from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from classifier.mechanisms import RECORD_BY_KEY
from classifier.taxonomy import Mechanism
from tests.factories import SourceFactory, make_classification, make_page, make_source
from wiki.devtools.generate import wiki_generate
from wiki.models import Citation, Claim, Contrast, Source
from wiki.services.pages import page_save

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("contrast_wiki")]


def _svg(html: str, svg_id: str) -> str:
    match = re.search(rf'<svg[^>]*id="{svg_id}".*?</svg>', html, re.DOTALL)
    assert match, f"no svg #{svg_id}"
    return match.group(0)


def test_contrast_view_shows_the_works_side_by_side_with_differences_marked(client: Client) -> None:
    response = client.get(reverse("wiki:contrast", args=["gripforge", "polarharness"]))

    html = response.content.decode()
    assert response.status_code == 200
    assert re.search(r'<tr class="differs[^"]*" data-row="rl_update">', html)
    assert not re.search(r'<tr class="differs[^"]*" data-row="narrow">', html)
    assert "策略更新 vs 外部 harness 演化" in html


def test_contrast_view_draws_every_node_as_a_link_and_lists_the_same_data(client: Client) -> None:
    html = client.get(reverse("wiki:contrast", args=["gripforge", "polarharness"])).content.decode()

    svg = _svg(html, "contrast-graph")
    # a figure with a caption and a text equivalent, not an image with links inside
    assert 'role="img"' not in svg and 'aria-labelledby="contrast-graph-wide-title"' in svg
    assert '<figure class="graph-figure" aria-labelledby="contrast-graph-caption">' in html
    assert '<a class="skip-graph" href="#contrast-graph-caption">' in html
    nodes = re.findall(r'<a href="([^"]+)" class="node-link"(?: data-names="[^"]*")? data-node="([^"]+)"', svg)
    assert len(nodes) >= 4
    assert ("/sources/recurva/", "source:recurva") in nodes
    assert all(href.startswith("/") for href, _ in nodes)
    assert re.search(r"<title(?: id=\"[^\"]+\")? lang=\"zh-Hans\">GripForge — contrasts with \(策略更新 vs 外部 harness 演化[^<]*\) → PolarHarness</title>", svg)
    assert 'id="contrast-graph-text"' in html and "<caption>Nodes</caption>" in html
    assert 'class="graph-legend"' in html


def test_contrast_view_shows_the_claims_with_their_locators(client: Client) -> None:
    html = client.get(reverse("wiki:contrast", args=["tasksmith", "gripforge"])).content.decode()

    assert "SFT vs GRPO" in html
    assert '<span class="locator">§3.1 / §5</span>' in html


def test_contrast_of_herder_with_itself_sets_its_components_apart(client: Client) -> None:
    for url in (reverse("wiki:contrast", args=["herder", "herder"]), reverse("wiki:contrast-multi") + "?works=herder"):
        html = client.get(url).content.decode()
        assert "Herder Branch-GRPO" in html and "Herder overseer" in html.replace("Overseer", "overseer")
        assert "参数更新 vs 无参数更新" in html
        assert re.search(r'<tr class="differs[^"]*" data-row="verdict">', html)


def test_component_syntax_picks_one_component(client: Client) -> None:
    response = client.get(reverse("wiki:contrast", args=["herder:branch-grpo", "tasksmith"]))

    assert response.status_code == 200
    assert response.context["comparison"].columns[0].name.endswith("Branch-GRPO")
    assert len(response.context["comparison"].columns) == 2


def test_contrast_with_unknown_work_is_404_and_names_it(client: Client) -> None:
    response = client.get(reverse("wiki:contrast", args=["gripforge", "no-such-work"]))

    assert response.status_code == 404
    assert "No work in the wiki is called “no-such-work”" in response.content.decode()


def test_contrast_of_fewer_than_two_works_asks_for_more(client: Client) -> None:
    for url in (reverse("wiki:contrast-multi") + "?works=gripforge", reverse("wiki:contrast-multi")):
        response = client.get(url)
        assert response.status_code == 200
        assert "Choose at least two works" in response.content.decode()
        assert "<svg" not in response.content.decode().split("<main", 1)[1]


def test_the_contrast_page_finds_works_to_tick_and_keeps_the_contrasted_ones_ticked(client: Client) -> None:
    found = client.get(reverse("wiki:contrast-multi") + "?works=gripforge&q=harness").content.decode()
    assert '<input type="checkbox" name="works" value="gripforge" checked>' in found
    assert '<input type="checkbox" name="works" value="polarharness">' in found
    assert 'value="tasksmith"' not in found and 'id="id_q" value="harness"' in found

    shown = client.get(reverse("wiki:contrast", args=["gripforge", "polarharness"]) + "?q=task").content.decode()
    assert '<input type="checkbox" name="works" value="polarharness" checked>' in shown
    assert '<input type="checkbox" name="works" value="tasksmith">' in shown


def test_contrast_of_three_works(client: Client) -> None:
    response = client.get(reverse("wiki:contrast-multi") + "?works=gripforge,polarharness,recurva")

    assert [c.name for c in response.context["comparison"].columns] == ["GripForge", "PolarHarness", "Recurva"]


def test_map_colours_works_by_mechanism_and_shapes_them_by_verdict(client: Client) -> None:
    response = client.get(reverse("wiki:graph-map"))

    html = response.content.decode()
    svg = _svg(html, "works-map")
    assert re.search(r'data-node="source:gripforge">\s*<title lang="en">[^<]*</title>\s*<g class="node kind-source shape-circle has-mechanism mech-policy_gradient verdict-strict" style="--mech: #3172bd">', svg)
    assert re.search(r'data-node="source:tasksmith">\s*<title lang="en">[^<]*</title>\s*<g class="node kind-source shape-square has-mechanism mech-sft_distillation verdict-not_strict" style="--mech: #bd7d1b">', svg)
    assert svg.count('class="edge edge-contrasts"') >= 5
    assert "Legend" in html and "Strict (narrow)" in html and "Harness / scaffold" in html
    assert "<caption>Edges</caption>" in html


def test_a_works_colour_is_its_mechanisms_record_and_no_stylesheet_names_a_mechanism(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(RECORD_BY_KEY, "harness", replace(RECORD_BY_KEY["harness"], colour="#123456"))

    html = client.get(reverse("wiki:graph-map")).content.decode()

    assert re.search(r'data-node="source:polarharness">\s*<title lang="en">[^<]*</title>\s*'
                     r'<g class="node kind-source [^"]*mech-harness[^"]*" style="--mech: #123456">', _svg(html, "works-map"))
    assert '<g class="node has-mechanism mech-harness" style="--mech: #123456">' in html  # the legend's swatch
    stylesheets = " ".join(path.read_text(encoding="utf-8") for path in (Path(settings.BASE_DIR) / "static").rglob("*.css"))
    assert not [m.value for m in Mechanism if re.search(rf"\b{m.value}\b", stylesheets)]


def test_map_filtered_by_mechanism_and_unknown_mechanism(client: Client) -> None:
    html = client.get(reverse("wiki:graph-map") + "?mechanism=harness").content.decode()
    svg = _svg(html, "works-map")
    # GripForge is drawn as the other side of its contrasts with the harnesses; TaskSmith, set against GripForge only, is not
    assert "source:polarharness" in svg and "source:gripforge" in svg and "source:tasksmith" not in svg
    refused = client.get(reverse("wiki:graph-map") + "?mechanism=alchemy")
    assert refused.status_code == 400
    assert "Select a valid choice. alchemy is not one of the available choices." in refused.content.decode()


def test_the_map_filters_by_verdict_and_links_each_count_to_its_works(client: Client) -> None:
    html = client.get(reverse("wiki:graph-map"), {"verdict": "adjacent"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    svg = _svg(html, "works-map")
    refused = client.get(reverse("wiki:graph-map"), {"verdict": "maybe"}, HTTP_ACCEPT_LANGUAGE="en")

    # EvoOpt is the one adjacent work; GripForge is drawn as the other side of its contrast, Herder is not drawn
    assert "source:evoopt" in svg and "source:gripforge" in svg and "herder" not in svg
    assert '<option value="adjacent" selected>' in html
    assert '<a href="/sources/?mechanism=evolution_strategies&amp;verdict=adjacent">1</a>' in html
    assert refused.status_code == 400 and "Verdict: Select a valid choice. maybe" in refused.content.decode()


def test_the_map_draws_the_newest_contrasts_and_says_how_many_it_leaves_out(client: Client) -> None:
    gripforge = Source.objects.get(slug="gripforge")
    late = Source.objects.get(slug="lookfirst")
    for n in range(30):
        Contrast.objects.create(left=SourceFactory.create(slug=f"filler-{n}", short_name=f"Filler {n}"), right=gripforge,
                                axis=f"filler {n}")
    newest = Contrast.objects.create(left=late, right=gripforge, axis="safety check vs skill calls")
    total = Contrast.objects.count()

    html = client.get(reverse("wiki:graph-map"), HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert newest.axis in _svg(html, "works-map")
    assert f"Drawn: 21 of {total} contrasts, the newest first" in html


def test_an_unknown_mechanism_on_the_map_is_refused_in_the_readers_language(client: Client) -> None:
    response = client.get(reverse("wiki:graph-map"), {"mechanism": "bogus"}, HTTP_ACCEPT_LANGUAGE="zh-Hans")

    assert response.status_code == 400
    html = response.content.decode()
    assert re.search(r'<div id="map-filter-error" role="alert"><ul class="errorlist"><li>机制：[^<]*bogus[^<]*</li>', html)
    assert "“bogus”不是可选的值；请从列表中选择。" in html
    assert 'aria-invalid="true"' in html and 'id="works-map"' not in html


@pytest.mark.parametrize("name", ["wiki:compare", "wiki:contrast-multi"])
def test_an_unknown_work_is_named_in_one_sentence_in_the_readers_language(client: Client, name: str) -> None:
    chinese = client.get(reverse(name), {"works": "nope,gripforge"}, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    english = client.get(reverse(name), {"works": "nope,Nada,gripforge"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert "wiki 中没有名为“nope”的工作。" in chinese
    assert "”." not in chinese
    assert "No work in the wiki is called “nope”, “nada”." in english


_SFT_AXIS = {"en": "SFT on verifier-filtered trajectories vs GRPO policy update", "zh-Hans": "SFT vs GRPO 策略更新"}


@pytest.mark.parametrize(("language", "other"), [("en", "zh-Hans"), ("zh-Hans", "en")])
def test_contrast_axes_written_in_both_languages_are_shown_in_the_readers(client: Client, language: str, other: str) -> None:
    contrast = Contrast.objects.select_related("claim", "left").get(axis__startswith="SFT vs GRPO")
    assert contrast.claim is not None
    urls = [contrast.claim.get_detail_url(), contrast.left.get_absolute_url(),
            reverse("wiki:contrast", args=[contrast.left.slug, contrast.right.slug])]
    for url in urls:
        html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        # A drawn line's hover text (its <title>) gives the whole axis, as written.
        main = re.sub(r"<title[^>]*>.*?</title>", "", html.split("<main", 1)[1])
        assert _SFT_AXIS[language] in main, url
        assert _SFT_AXIS[other] not in main, url


def test_local_graph_view_filters_by_edge_type_and_depth(client: Client) -> None:
    url = reverse("wiki:graph-local", kwargs={"kind": "source", "key": "gripforge"})
    everything = client.get(url).content.decode()
    cites_only = client.get(url + "?depth=1&edges=cites").content.decode()

    assert 'class="edge edge-contrasts"' in everything
    assert 'class="edge edge-contrasts"' not in cites_only and 'class="edge edge-cites"' in cites_only
    assert 'value="cites"\n' in cites_only or re.search(r'value="cites"[^>]*checked', cites_only)


def test_the_neighbourhood_opens_on_its_own_page_as_deep_as_shown_and_that_page_offers_no_link_to_itself(
        client: Client) -> None:
    source = client.get(reverse("wiki:source-detail", args=["gripforge"]) + "?depth=2&edges=contrasts&edges=cites").content.decode()
    standalone = client.get(reverse("wiki:graph-local", kwargs={"kind": "source", "key": "gripforge"}) + "?depth=2").content.decode()

    [link] = re.findall(r'<p class="graph-open"><a href="([^"]+)"', source)
    assert link.replace("&amp;", "&") == reverse("wiki:graph-local", kwargs={"kind": "source", "key": "gripforge"}) + (
        "?depth=2&edges=contrasts&edges=cites")
    own_address = reverse("wiki:graph-local", kwargs={"kind": "source", "key": "gripforge"}) + "?"
    assert "Open the neighbourhood on its own page" not in standalone and f'href="{own_address}' not in standalone


def test_the_neighbourhoods_own_page_is_titled_with_what_it_is_drawn_around(client: Client) -> None:
    url = reverse("wiki:graph-local", kwargs={"kind": "component", "key": "herder/branch-grpo"})

    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    chinese = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()

    # tabs and bookmarks of several neighbourhoods tell them apart
    assert re.search(r"<title>Neighbourhood of Herder Branch-GRPO · ", english)
    assert re.search(r"<title>Herder Branch-GRPO的邻域 · ", chinese)
    assert english.count("Neighbourhood of <a ") == 1


def test_local_graph_of_a_component_and_unknown_nodes(client: Client) -> None:
    ok = client.get(reverse("wiki:graph-local", kwargs={"kind": "component", "key": "herder/branch-grpo"}))
    assert ok.status_code == 200 and "Branch-GRPO" in ok.content.decode()
    assert client.get(reverse("wiki:graph-local", kwargs={"kind": "source", "key": "nope"})).status_code == 404
    assert client.get(reverse("wiki:graph-local", kwargs={"kind": "planet", "key": "mars"})).status_code == 404


def test_bad_local_graph_parameters_fall_back_and_say_so(client: Client) -> None:
    response = client.get(reverse("wiki:graph-local", kwargs={"kind": "page", "key": "contrast-wiki"}) + "?depth=9&edges=telepathy")

    html = response.content.decode()
    # a bad request, as on the map, drawn as it would be without the choices refused
    assert response.status_code == 400 and 'data-node="page:contrast-wiki"' in html
    # the choices open, each group that was refused tied to the message
    assert '<details class="graph-options" open>' in html and '<p class="form-error" id="graph-filter-error" role="alert">' in html
    assert html.count('<fieldset aria-describedby="graph-filter-error">') == 2


def _grow_around_the_works() -> None:
    """Far more than ten times the contrast wiki's rows, wired to its GRPO work and a harness, so N+1s would show."""
    result = wiki_generate(works=300, claims=1500, pages=60, seed=99)
    gripforge, polarharness = Source.objects.get(slug="gripforge"), Source.objects.get(slug="polarharness")
    claims = result.claim_ids[:400]
    Citation.objects.bulk_create(Citation(claim_id=c, source=gripforge, locator="p.1", position=9) for c in claims)
    Claim.about.through.objects.bulk_create(Claim.about.through(claim_id=c, source_id=polarharness.pk) for c in claims)
    Contrast.objects.bulk_create(Contrast(left_id=s, right=gripforge, axis="generated") for s in result.source_ids[:200])


URLS = [
    ("wiki:contrast", {"left": "gripforge", "right": "polarharness"}, ""),
    ("wiki:contrast-multi", {}, "?works=herder,gripforge,polarharness"),
    ("wiki:graph-local", {"kind": "source", "key": "gripforge"}, "?depth=2"),
    ("wiki:graph-local", {"kind": "page", "key": "contrast-wiki"}, "?depth=2"),
    ("wiki:graph-local", {"kind": "mechanism", "key": "policy_gradient"}, ""),
    ("wiki:graph-map", {}, ""),
    ("wiki:graph-map", {}, "?mechanism=harness&verdict=not_strict"),
    ("wiki:compare", {}, "?works=tasksmith,gripforge,herder"),
    ("wiki:compare", {}, "?works=tasksmith,gripforge,herder&format=csv"),
    ("wiki:compare", {}, "?works=tasksmith,gripforge,herder&differs=1"),
    ("wiki:compare", {}, "?works=tasksmith,gripforge,herder&format=json"),
    ("wiki:graph-local", {"kind": "source", "key": "gripforge"}, "?depth=2&edges=bogus"),
    ("api:graph-local", {}, "?node=page:contrast-wiki&depth=2&format=graphml"),
    ("api:graph-local", {}, "?node=source:gripforge&depth=2"),
    ("api:graph-map", {}, "?format=graphml"),
    ("api:graph-map", {}, "?mechanism=harness&limit=100"),
]


def test_graph_views_run_as_many_queries_on_ten_times_the_data(client: Client, django_assert_num_queries: DjangoAssertNumQueries) -> None:
    small = {}
    for name, kwargs, query in URLS:
        url = reverse(name, kwargs=kwargs) + query
        with CaptureQueriesContext(connection) as captured:
            status = client.get(url).status_code
            assert status in (200, 400)
        small[url] = (len(captured.captured_queries), status)

    _grow_around_the_works()

    for url, (count, status) in small.items():
        with django_assert_num_queries(count):
            assert client.get(url).status_code == status


def test_page_and_source_views_draw_their_neighbourhood(client: Client) -> None:
    page_html = client.get(reverse("wiki:page-detail", kwargs={"slug": "contrast-wiki"})).content.decode()
    source_html = client.get(reverse("wiki:source-detail", kwargs={"slug": "gripforge"})).content.decode()

    assert 'data-node="page:contrast-wiki"' in _svg(page_html, "local-graph")
    assert 'id="local-graph-text"' in page_html
    svg = _svg(source_html, "local-graph")
    assert 'data-node="source:recurva"' in svg and 'class="edge edge-contrasts"' in svg
    assert reverse("wiki:graph-local", kwargs={"kind": "source", "key": "gripforge"}) in source_html


def test_page_neighbourhood_filters_by_edge_type_without_javascript(client: Client) -> None:
    url = reverse("wiki:page-detail", kwargs={"slug": "contrast-wiki"})
    html = client.get(url + "?depth=1&edges=raises").content.decode()

    svg = _svg(html, "local-graph")
    assert 'class="edge edge-raises"' in svg
    assert 'class="edge edge-contains"' not in svg and 'class="edge edge-links_to"' not in svg
    assert '<form method="get" class="graph-filter" action="/graph/local/page/contrast-wiki/">' in html


def test_depth_alone_keeps_every_edge_type_ticked(client: Client) -> None:
    html = client.get(reverse("wiki:graph-local", kwargs={"kind": "source", "key": "gripforge"}) + "?depth=2").content.decode()

    ticked = re.findall(r'<input type="checkbox" name="edges" value="(\w+)"[^>]*checked', html)
    assert len(ticked) == 9


def test_contrast_page_shows_the_pairs_own_contrasts_first_and_the_others_apart(client: Client) -> None:
    html = client.get(reverse("wiki:contrast", args=["gripforge", "polarharness"])).content.decode()

    own = html[html.index('id="own-contrasts-heading"'):html.index('id="other-contrasts-heading"')]
    others = html[html.index('id="other-contrasts-heading"'):html.index("claim-list")]
    assert "/sources/polarharness/" in own and "/sources/recurva/" not in own and "/sources/tasksmith/" not in own
    assert "/sources/recurva/" in others and "/sources/tasksmith/" in others


def test_long_evidence_is_cut_at_a_word_or_sentence_with_the_whole_on_demand(client: Client) -> None:
    from wiki.text.spaces import excerpt

    assert excerpt("短句。" * 60, 20).endswith("。…")
    assert excerpt("policy update versus external harness evolution", 28) == "policy update versus…"
    html = client.get(reverse("wiki:compare") + "?works=gripforge,polarharness").content.decode()
    row = html[html.index('data-row="evidence"'):]
    row = row[:row.index("</tr>")]
    assert "…" in row and '<details class="full-text"><summary>Full text</summary>' in row


def test_contrast_graph_writes_each_contrasts_axis_on_its_line(client: Client) -> None:
    html = client.get(reverse("wiki:contrast", args=["gripforge", "polarharness"])).content.decode()
    svg = html.split('id="contrast-graph', 1)[1].split("</svg>", 1)[0]
    axes = svg.split('<g class="axes" aria-hidden="true">', 1)[1].split('<g class="nodes">', 1)[0]
    # its contrasts with PolarHarness and Recurva, and TaskSmith's and EvoOpt's with it
    assert axes.count('class="label axis-label"') == Contrast.objects.filter(right__slug="gripforge").count() + 2 == 4
    assert "policy update vs" in axes and "parameter-space" in axes
    assert "Contrast: its axis is written beside the line in its colour, or numbered on it" in html


def test_a_graphs_caption_is_punctuated_in_the_readers_language(client: Client) -> None:
    url = reverse("wiki:graph-map")
    captions = {}
    for language in ("zh-Hans", "en"):
        html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        match = re.search(r"<figcaption[^>]*>(.*?)</figcaption>", html, re.DOTALL)
        assert match
        captions[language] = re.sub(r"<[^>]+>|\s+", " ", match.group(1)).strip()
    assert captions["zh-Hans"].startswith("按机制排列的工作地图。") and "。" in captions["zh-Hans"][12:]
    assert not re.search(r"[\u4e00-\u9fff][.;]", captions["zh-Hans"])
    assert captions["en"].startswith("Map of works by mechanism. ")


def test_a_nodes_title_takes_each_languages_colon_and_list_separator(client: Client) -> None:
    chinese = _svg(client.get(reverse("wiki:contrast", args=["gripforge", "polarharness"]),
                              headers={"accept-language": "zh-CN"}).content.decode(), "contrast-graph")
    english = _svg(client.get(reverse("wiki:contrast", args=["gripforge", "polarharness"]),
                              headers={"accept-language": "en"}).content.decode(), "contrast-graph")

    assert re.search(r"<title[^>]*>工作：GripForge — 策略梯度、严格 Agentic RL</title>", chinese)
    assert re.search(r"<title[^>]*>Work: GripForge — Policy gradient, Strict Agentic RL</title>", english)
    # a line's title too: its axis in each language's brackets
    assert re.search(r"<title[^>]*>GripForge — 对比（[^<（]*） → PolarHarness</title>", chinese)
    assert re.search(r"<title[^>]*>GripForge — contrasts with \([^<(]*\) → PolarHarness</title>", english)


def test_the_map_says_how_many_works_wait_for_a_classification_and_lists_them(client: Client) -> None:
    waiting = Source.objects.unclassified().count()
    assert waiting

    html = client.get(reverse("wiki:graph-map"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    filtered = client.get(reverse("wiki:graph-map"), {"mechanism": "harness"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert re.search(rf"{waiting} works? (is|are) not classified yet and ha(s|ve) no place on the map, unless a contrast "
                     rf'names (it|them) \(drawn dashed\): <a href="/sources/\?classified=false">list (it|them)</a>\.', html)
    assert "not classified yet" not in filtered


def test_every_line_the_graphs_style_apart_has_its_entry_in_the_legend(client: Client) -> None:
    styled = set(re.findall(r"svg\.graph \.edge-([a-z_]+) path:first-of-type \{",
                            (Path(settings.BASE_DIR) / "static" / "css" / "graph.css").read_text(encoding="utf-8")))
    html = client.get(reverse("wiki:graph-map")).content.decode()
    legend = html[html.index('class="graph-legend"'):]

    assert {"contrasts", "cites", "component_of", "classified_as"} <= styled
    for edge_type in styled:
        assert f"legend-{edge_type}" in legend, edge_type
    assert "legend-plain" in legend and "States a claim, raises or answers a question" in legend


@pytest.mark.parametrize(("view", "shown"), [
    (reverse("wiki:contrast-multi") + "?works=gripforge,herder:branch-grpo", {"source:gripforge", "component:herder/branch-grpo"}),
    (reverse("wiki:graph-map") + "?mechanism=policy_gradient", {"source:gripforge", "mechanism:policy_gradient"}),
    (reverse("wiki:graph-local", args=["source", "gripforge"]) + "?depth=2&edges=cites&edges=contrasts", {"source:gripforge"}),
    (reverse("wiki:source-detail", args=["gripforge"]), {"source:gripforge"}),
])
def test_each_graph_offers_itself_as_graphml(client: Client, view: str, shown: set[str]) -> None:
    import io

    import networkx as nx

    html = client.get(view).content.decode()
    link = re.search(r'<a href="([^"]*format=graphml[^"]*)" download="([^"]+\.graphml)"', html)
    assert link, "no GraphML link"
    address = link.group(1).replace("&amp;", "&")
    graphml = client.get(address)

    assert graphml.status_code == 200 and graphml["Content-Type"].startswith("application/graphml+xml")
    graph = nx.read_graphml(io.BytesIO(graphml.content))
    assert shown <= set(graph.nodes)
    if "depth=2" in view:
        assert "depth=2" in address and "edge_types=cites%2Ccontrasts" in address
        assert {d["type"] for _u, _v, d in graph.edges(data=True)} <= {"cites", "contrasts"}


def _drawn_and_downloaded(client: Client, address: str) -> tuple[set[str], set[str]]:
    """The nodes a neighbourhood's page draws, and those of the GraphML file its download link gives."""
    import io

    import networkx as nx

    html = client.get(address).content.decode()
    drawn = set(re.findall(r'data-node="([^"]+)"', _svg(html, "local-graph")))
    link = re.search(r'<a href="([^"]*format=graphml[^"]*)" download=', html)
    assert link, "no GraphML link"
    graphml = client.get(link.group(1).replace("&amp;", "&"))
    assert graphml.status_code == 200
    return drawn, set(nx.read_graphml(io.BytesIO(graphml.content)).nodes)


@pytest.mark.parametrize("kind", ["page", "source", "claim"])
def test_a_neighbourhoods_download_is_the_graph_its_page_draws(client: Client, kind: str) -> None:
    key = {"page": "contrast-wiki", "source": "gripforge",
           "claim": str(Contrast.objects.get(axis__startswith="SFT vs GRPO").claim_id)}[kind]
    for depth in ("1", "2"):
        address = reverse("wiki:graph-local", kwargs={"kind": kind, "key": key}) + f"?depth={depth}"
        drawn, downloaded = _drawn_and_downloaded(client, address)

        # nothing is left out of these small pictures: the file holds what they draw, and nothing else
        assert "Not drawn" not in client.get(address, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert drawn == downloaded, (address, drawn ^ downloaded)
    page_drawn, _ = _drawn_and_downloaded(client, reverse("wiki:page-detail", kwargs={"slug": "contrast-wiki"}))
    assert kind != "page" or {"source:gripforge", "source:polarharness"} <= page_drawn


@pytest.mark.parametrize("language, names", [("en", "Policy gradient&#10;策略梯度"), ("zh-hans", "策略梯度&#10;Policy gradient")])
def test_every_node_carries_its_names_in_both_languages_for_the_finder(client: Client, language: str, names: str) -> None:
    html = client.get(reverse("wiki:graph-map"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    contrast = client.get(reverse("wiki:contrast", args=["gripforge", "polarharness"]), HTTP_ACCEPT_LANGUAGE=language).content.decode()

    assert f'data-names="{names}" data-node="mechanism:policy_gradient">' in html
    assert 'data-names="GripForge" data-node="source:gripforge">' in html
    # a claim is found by its words in its title, not written out a second time
    assert 'class="node-link" data-node="claim:' in contrast and not re.search(r'data-names="[^"]*" data-node="claim:', contrast)


def test_a_write_that_leaves_the_map_as_it_was_does_not_draw_it_again(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    from wiki.graph import draw

    drawn: list[int] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        drawn.append(1)
        return draw(*args, **kwargs)

    monkeypatch.setattr("wiki.views.graphs.draw", counted)
    before = client.get(reverse("wiki:graph-map")).content.decode()
    page = make_page(slug="unrelated", title="Unrelated", body="Nothing the map shows.")
    page_save(slug=page.slug, title=page.title, body="Still nothing the map shows.")
    after = client.get(reverse("wiki:graph-map")).content.decode()

    assert len(drawn) == 1
    assert _svg(after, "works-map") == _svg(before, "works-map")

    make_classification(make_source(slug="newly-classified", short_name="Newly Classified"), mechanism="harness",
                        verdict="not_strict")
    changed = client.get(reverse("wiki:graph-map")).content.decode()

    assert len(drawn) == 2
    assert 'data-node="source:newly-classified"' in _svg(changed, "works-map")


def _caption(html: str, svg_id: str) -> str:
    return html[html.index(f'<figcaption id="{svg_id}-caption"'):html.index("</figcaption>")]


def test_the_maps_caption_says_how_many_works_its_picture_leaves_out_and_where_to_find_them(client: Client) -> None:
    assert "not drawn" not in _caption(client.get(reverse("wiki:graph-map"), HTTP_ACCEPT_LANGUAGE="en").content.decode(),
                                       "works-map")
    for n in range(60):
        make_classification(make_source(slug=f"many-{n:02d}", short_name=f"Many {n:02d}"), mechanism="harness",
                            verdict="not_strict")
    from wiki.graph import map_graph

    hidden = map_graph()[1].hidden
    english = _caption(client.get(reverse("wiki:graph-map"), HTTP_ACCEPT_LANGUAGE="en").content.decode(), "works-map")
    chinese = _caption(client.get(reverse("wiki:graph-map"), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode(),
                       "works-map")
    harness = _caption(client.get(reverse("wiki:graph-map"), {"mechanism": "harness"},
                                  HTTP_ACCEPT_LANGUAGE="en").content.decode(), "works-map")

    assert hidden > 20
    assert f"not drawn, to keep the picture readable: {hidden} works" in english
    assert '<a href="/sources/">see them</a>' in english
    assert f"{hidden} 项工作" in chinese
    assert "not drawn, to keep the picture readable:" in harness and 'href="/sources/?mechanism=harness"' in harness
