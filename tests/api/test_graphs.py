"""The graph endpoints: contrast graphs of works and components, local graphs by edge type, and their refusals."""

from __future__ import annotations

import io
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from tests.factories import ContrastWiki, cite, make_page, make_source
from wiki.api.serializers.graphs import EDGE_TYPE_CHOICES
from wiki.graph.forms import MAX_WORKS
from wiki.models import Contrast, Source

pytestmark = pytest.mark.django_db


def _main(body: bytes) -> str:
    """The page's main content, without the addresses of the page itself (language switch, login link)."""
    content = body.decode()
    return re.sub(r"works=[^\"&]*", "", content[content.index("<main"):content.index("</main>")])


def test_contrast_graph_has_both_works_and_the_contrast_between_them(contrast_wiki: ContrastWiki, api: APIClient) -> None:
    data = api.get("/api/v1/graph/contrast/", {"works": "gripforge,polarharness"}).json()

    ids = {node["id"] for node in data["nodes"]}
    assert {"source:gripforge", "source:polarharness"} <= ids
    assert data["subjects"] == ["source:gripforge", "source:polarharness"]
    assert any(e["type"] == "contrasts" and {e["source"], e["target"]} == {"source:gripforge", "source:polarharness"} for e in data["edges"])
    assert all(e["source"] in ids and e["target"] in ids for e in data["edges"])


def test_contrast_graph_of_a_component(contrast_wiki: ContrastWiki, api: APIClient) -> None:
    data = api.get("/api/v1/graph/contrast/", {"works": "herder:branch-grpo,gripforge"}).json()

    assert "component:herder/branch-grpo" in {node["id"] for node in data["nodes"]}


def test_contrast_graph_takes_as_many_works_as_the_browser_view_and_any_case(contrast_wiki: ContrastWiki, api: APIClient) -> None:
    for _ in range(MAX_WORKS):
        make_source()
    slugs = list(Source.objects.order_by("slug").values_list("slug", flat=True)[:MAX_WORKS])

    many = api.get("/api/v1/graph/contrast/", {"works": ",".join(slugs)})
    upper = api.get("/api/v1/graph/contrast/", {"works": "GripForge,PolarHarness"})

    assert many.status_code == 200 and len(many.json()["subjects"]) == MAX_WORKS == 12
    assert upper.status_code == 200 and upper.json()["subjects"] == ["source:gripforge", "source:polarharness"]


@pytest.mark.parametrize("node", ["\t", "gripforge", "source:", "bogus:gripforge"])
def test_local_graph_refuses_a_node_that_is_not_kind_colon_key(contrast_wiki: ContrastWiki, api: APIClient, node: str) -> None:
    response = api.get("/api/v1/graph/local/", {"node": node})

    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"node"}


@pytest.mark.parametrize(("works", "status"), [("gripforge", 400), ("a,b,c,d,e,f,g,h,i,j,k,l,m", 400), ("gripforge,no-such-work", 404), ("herder:nope,gripforge", 404)])
def test_contrast_graph_refuses_one_work_or_unknown_ones(contrast_wiki: ContrastWiki, api: APIClient, works: str, status: int) -> None:
    response = api.get("/api/v1/graph/contrast/", {"works": works})

    assert response.status_code == status
    assert response.json()["code"] in ("invalid", "not_found")


def test_local_graph_follows_only_the_edge_types_asked(contrast_wiki: ContrastWiki, api: APIClient) -> None:
    data = api.get("/api/v1/graph/local/", {"node": "source:gripforge", "edge_types": "contrasts"}).json()

    assert data["center"] == "source:gripforge"
    assert data["edges"] and {e["type"] for e in data["edges"]} <= {"contrasts", "component_of", "classified_as"}


def test_local_graph_of_an_unknown_node_is_404(contrast_wiki: ContrastWiki, api: APIClient) -> None:
    assert api.get("/api/v1/graph/local/", {"node": "page:nowhere"}).status_code == 404


@pytest.mark.parametrize(("params", "field", "english", "chinese"), [
    ({"node": "bogus"}, "node", "Name a node as kind:key, e.g. source:skillforge.", "请以 类型:键 的形式指定节点，例如 source:skillforge。"),
    ({"node": "source:gripforge", "edge_types": "bogus"}, "edge_types", "Unknown edge type.", "未知的边类型。"),
])
def test_local_graph_parameter_errors_are_in_the_readers_language(
    contrast_wiki: ContrastWiki, api: APIClient, params: dict[str, str], field: str, english: str, chinese: str,
) -> None:
    assert api.get("/api/v1/graph/local/", params, HTTP_ACCEPT_LANGUAGE="en").json()["errors"][field] == [english]
    assert api.get("/api/v1/graph/local/", params, HTTP_ACCEPT_LANGUAGE="zh-Hans").json()["errors"][field] == [chinese]


@pytest.mark.parametrize("works", ["gripforge,gripforge", "GripForge,gripforge", "herder:branch-grpo,HERDER:branch-grpo"])
def test_a_repeated_work_counts_once_and_is_then_too_few(contrast_wiki: ContrastWiki, api: APIClient, client: Client,
                                                         works: str) -> None:
    response = api.get("/api/v1/graph/contrast/", {"works": works})

    assert response.status_code == 400
    assert response.json()["code"] == "too_few"
    assert response.json()["errors"]["works"] == [f"Name 2 to {MAX_WORKS} different works separated by commas."]
    once = works.split(",")[0]
    for name in ("wiki:contrast-multi", "wiki:compare"):
        repeated, single = (client.get(reverse(name), {"works": w}) for w in (works, once))
        assert (repeated.status_code, _main(repeated.content)) == (single.status_code, _main(single.content))


def test_the_map_of_works_as_json_with_what_it_leaves_out(contrast_wiki: ContrastWiki, api: APIClient) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from wiki.caching import versions
    from wiki.devtools.generate import wiki_generate

    def read(**params: str) -> tuple[dict, int]:  # type: ignore[type-arg]
        versions.bump()  # as after a write: the map is drawn again
        with CaptureQueriesContext(connection) as captured:
            response = api.get("/api/v1/graph/map/", params)
        assert response.status_code == 200, response.content
        return response.json(), len(captured.captured_queries)

    everything, queries = read()
    adjacent, _ = read(verdict="adjacent")
    refused = api.get("/api/v1/graph/map/", {"mechanism": "alchemy"})

    assert {"source:gripforge", "source:polarharness", "mechanism:policy_gradient"} <= {n["id"] for n in everything["nodes"]}
    assert {"source": "source:gripforge", "target": "source:polarharness", "type": "contrasts",
            "label": Source.objects.get(slug="gripforge").contrasts_as_left.get(right__slug="polarharness").axis} in everything["edges"]
    assert everything["summary"]["contrasts"] == everything["summary"]["contrasts_drawn"] == 6
    works = {n["id"] for n in adjacent["nodes"] if n["kind"] == "source"}
    assert works == {"source:evoopt", "source:gripforge"} and adjacent["summary"]["total"] == 1
    assert refused.status_code == 400 and list(refused.json()["errors"]) == ["mechanism"]

    wiki_generate(works=60, claims=60, pages=4, seed=3)
    larger, more_queries = read()
    assert larger["summary"]["total"] > everything["summary"]["total"] and more_queries == queries


@pytest.mark.parametrize("address", ["/api/v1/graph/contrast/?works=gripforge,polarharness",
                                     "/api/v1/graph/local/?node=source:gripforge&depth=2", "/api/v1/graph/map/"])
def test_each_graph_as_graphml_holds_the_nodes_and_edges_of_its_json(contrast_wiki: ContrastWiki, api: APIClient,
                                                                     address: str) -> None:
    import networkx as nx

    as_json = api.get(address).json()
    by_query = api.get(address + "&format=graphml" if "?" in address else address + "?format=graphml")
    by_header = api.get(address, HTTP_ACCEPT="application/graphml+xml")

    assert by_query["Content-Type"] == by_header["Content-Type"] == "application/graphml+xml; charset=utf-8"
    assert by_query.content == by_header.content
    graph = nx.read_graphml(io.BytesIO(by_query.content), force_multigraph=True)
    assert dict(graph.nodes(data="label")) == {n["id"]: n["label"] for n in as_json["nodes"]}
    assert sorted((u, v, d["type"], d["label"]) for u, v, d in graph.edges(data=True)) == sorted(
        (e["source"], e["target"], e["type"], e["label"]) for e in as_json["edges"])
    assert graph.nodes["source:gripforge"]["url"] == "http://testserver/sources/gripforge/"
    assert graph.nodes["source:gripforge"]["mechanism"] == "policy_gradient"


def test_graphml_leaves_out_what_xml_cannot_hold_and_errors_stay_json(contrast_wiki: ContrastWiki, api: APIClient) -> None:
    import networkx as nx

    Source.objects.filter(slug="gripforge").update(short_name="Grip\x0bForge <&> “抓取”")

    graph = nx.read_graphml(io.BytesIO(api.get("/api/v1/graph/contrast/", {"works": "gripforge,polarharness",
                                                                          "format": "graphml"}).content))
    missing = api.get("/api/v1/graph/contrast/", {"works": "gripforge,nosuchwork", "format": "graphml"})
    unknown_format = api.get("/api/v1/graph/map/", {"format": "gexf"})

    assert graph.nodes["source:gripforge"]["label"] == "GripForge <&> “抓取”"
    assert missing.status_code == 404 and missing["Content-Type"] == "application/json"
    assert "nosuchwork" in missing.json()["detail"]
    assert unknown_format.status_code == 400 and "graphml" in unknown_format.json()["errors"]["format"][0]


def test_the_map_as_a_file_holds_every_work_of_the_filter_not_only_those_drawn_and_says_where_it_is_cut(
        contrast_wiki: ContrastWiki, api: APIClient, client: Client) -> None:
    import networkx as nx
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.factories import make_classification, make_contrast
    from wiki.caching import versions
    from wiki.graph.build import MAP_EXPORT_MAX, MAP_LIMIT

    gripforge = Source.objects.get(slug="gripforge")
    for n in range(2 * MAP_LIMIT):
        work = make_source(slug=f"extra-{n:03d}", short_name=f"Extra {n:03d}")
        make_classification(work, mechanism="harness", verdict="not_strict")
        if n % 2:
            make_contrast(work, gripforge, axis=f"extra {n}")
    total = Source.objects.filter(classifications__isnull=False).distinct().count() + 1  # Herder counts its two parts

    def graphml(address: str) -> tuple[nx.Graph[str], int]:
        versions.bump()
        with CaptureQueriesContext(connection) as captured:
            response = client.get(address)
        assert response.status_code == 200, response.content
        return nx.read_graphml(io.BytesIO(response.content), force_multigraph=True), len(captured.captured_queries)

    html = client.get(reverse("wiki:graph-map"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    link = re.search(r'<a href="([^"]*format=graphml[^"]*)" download="works-map.graphml"', html)
    assert link and f"Drawn: {MAP_LIMIT} of {total}" in html
    whole, queries = graphml(link.group(1).replace("&amp;", "&"))
    works = {n for n, d in whole.nodes(data=True) if d["kind"] in ("source", "component") and d.get("verdict")}
    assert len(works) == total and {f"source:extra-{n:03d}" for n in range(2 * MAP_LIMIT)} <= works
    assert sum(d["type"] == "contrasts" for _, _, d in whole.edges(data=True)) == Contrast.objects.count()
    assert (whole.graph["total"], whole.graph["drawn"], whole.graph["cut"]) == (total, total, False)
    assert whole.graph["note"].startswith(f"Classified works and components the filter asks for: all {total};")

    cut, cut_queries = graphml(reverse("api:graph-map") + "?format=graphml&limit=10")
    assert sum(d["kind"] in ("source", "component") and bool(d.get("verdict")) for _, d in cut.nodes(data=True)) >= 10
    assert (cut.graph["drawn"], cut.graph["limit"], cut.graph["cut"]) == (10, 10, True)
    assert cut.graph["contrasts_drawn"] <= 10 < cut.graph["contrasts"] == Contrast.objects.count()
    assert cut.graph["note"].startswith(f"Cut at limit=10. Classified works and components the filter asks for: 10 of {total}")
    # as many queries whatever the limit
    assert cut_queries == queries

    refused = [api.get("/api/v1/graph/map/", {"limit": limit}) for limit in (0, MAP_EXPORT_MAX + 1, "all")]
    assert [r.status_code for r in refused] == [400, 400, 400] and all(list(r.json()["errors"]) == ["limit"] for r in refused)


def _drawn_in_picture(client: Client, address: str, svg_id: str) -> set[str]:
    """The nodes the browser's wide picture at ``address`` draws."""
    body = client.get(address).content.decode()
    wide = body[body.index(f'id="{svg_id}"'):body.index(f'id="{svg_id}-narrow"')]
    return set(re.findall(r'data-node="([^"]+)"', wide))


def test_a_graph_cut_to_draw_it_marks_in_its_files_the_nodes_the_picture_holds(contrast_wiki: ContrastWiki, api: APIClient,
                                                                               client: Client) -> None:
    import networkx as nx

    works = [make_source(short_name=f"工作 {i:02d}", title=f"长标题的工作 {i:02d}") for i in range(60)]
    bullets = "".join(f"- 第 {i} 条：GripForge 与 PolarHarness 的对照。{cite(contrast_wiki.grpo, contrast_wiki.harness, w)}\n"
                      for i, w in enumerate(works))
    make_page(slug="many-works", title="Many works", body=f"## 关键要点\n\n{bullets}")

    # the page's sixty works are cut to fifty; the contrast's claims between the two works are bounded before it
    for address, picture, svg_id, cut in [
        ("/api/v1/graph/local/?node=page:many-works", "/graph/local/page/many-works/", "local-graph", True),
        ("/api/v1/graph/contrast/?works=gripforge,polarharness", "/contrast/gripforge/polarharness/", "contrast-graph", False),
    ]:
        nodes = api.get(address).json()["nodes"]
        drawn = {n["id"] for n in nodes if n["drawn"]}
        assert (len(drawn) == 50 < len(nodes)) if cut else (len(drawn) == len(nodes) <= 50)
        assert drawn == _drawn_in_picture(client, picture, svg_id)
        graph = nx.read_graphml(io.BytesIO(api.get(address + "&format=graphml").content), force_multigraph=True)
        assert {n for n, shown in graph.nodes(data="drawn") if shown} == drawn
        assert graph.nodes["source:" + works[0].slug]["label"] == "工作 00"


def test_edge_types_are_labelled_in_the_language_the_schema_is_read_in() -> None:
    """The choices are made when the module is imported, in whatever language is active then: a label read at that
    moment would describe the schema's edge types in it, whichever language the schema is asked for."""
    labels = dict(EDGE_TYPE_CHOICES)

    with translation.override("zh-hans"):
        assert str(labels["about"]) == "关于"
    with translation.override("en"):
        assert str(labels["about"]) == "is about"
