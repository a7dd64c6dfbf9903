"""Ways into the graphs (every node's own page links its neighbourhood, a contrast line opens its contrast) and the
answers to what a graph or comparison address cannot give (400 and 404, in the format asked for)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import ContrastWiki
from wiki.models import Contrast, OpenQuestion
from wiki.services.glossary import glossary_term_create

pytestmark = pytest.mark.django_db


def _local(kind: str, key: object) -> str:
    return reverse("wiki:graph-local", kwargs={"kind": kind, "key": str(key)})


def _links(html: str) -> list[str]:
    return [href.replace("&amp;", "&") for href in re.findall(r'<a href="([^"]+)"', html)]


def test_claims_questions_mechanisms_and_components_link_their_neighbourhood_graph(
        contrast_wiki: ContrastWiki, client: Client) -> None:
    claim = Contrast.objects.get(axis__startswith="SFT vs GRPO").claim
    assert claim is not None
    question = OpenQuestion.objects.get()
    term = glossary_term_create(fields={"slug": "policy-gradient", "name_zh": "策略梯度", "name_en": "policy gradient",
                                        "mechanism": "policy_gradient"}, user=None)
    pages = {
        claim.get_detail_url(): _local("claim", claim.pk),
        question.get_absolute_url(): _local("question", question.pk),
        reverse("wiki:glossary-detail", args=[term.slug]): _local("mechanism", "policy_gradient"),
        reverse("wiki:source-detail", args=["herder"]): _local("component", "herder/branch-grpo"),
    }

    for address, graph in pages.items():
        html = client.get(address, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
        assert re.search(rf'<a href="{re.escape(graph)}"[^>]*>邻域图</a>', html), address
        assert client.get(graph).status_code == 200
    # a component's node in a graph leads to its card on its work's page
    source_html = client.get(reverse("wiki:source-detail", args=["herder"])).content.decode()
    assert 'id="component-branch-grpo"' in source_html and 'id="component-overseer-cro"' in source_html


def test_a_contrast_line_opens_its_contrast_in_the_picture_and_in_the_list(contrast_wiki: ContrastWiki, client: Client) -> None:
    html = client.get(reverse("wiki:graph-map"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    pair = reverse("wiki:contrast", args=["gripforge", "polarharness"])
    components = reverse("wiki:contrast", args=["herder:branch-grpo", "herder:overseer-cro"])

    svg = re.search(r'<svg[^>]*id="works-map".*?</svg>', html, re.DOTALL)
    assert svg
    # out of the Tab order (Tab walks the nodes; the list under the picture opens each contrast from the keyboard)
    link = re.search(rf'<a href="{re.escape(pair)}" class="edge-link" tabindex="-1" aria-labelledby="([^"]+)">'
                     r'<g class="edge edge-contrasts" data-from="source:gripforge" data-to="source:polarharness">'
                     r'<title id="([^"]+)"[^>]*>([^<]+)</title>', svg.group(0))
    # the link is named by the line's title, which says what the line is
    assert link and link.group(1) == link.group(2) and html.count(f'id="{link.group(1)}"') == 1
    assert "GripForge — contrasts with" in link.group(3) and "→ PolarHarness" in link.group(3)
    assert f'<a href="{components}" class="edge-link"' in svg.group(0)
    # no other line is a link
    assert svg.group(0).count('class="edge-link"') == svg.group(0).count('class="edge edge-contrasts"')
    table = html[html.index('id="works-map-text"'):]
    assert f'<a href="{pair}" lang="en">contrasts with</a>' in table
    assert client.get(pair).status_code == client.get(components).status_code == 200


def test_a_component_written_with_a_colon_leads_to_its_neighbourhood(contrast_wiki: ContrastWiki, client: Client) -> None:
    for written in ("herder:branch-grpo", "herder：branch-grpo"):
        response = client.get(_local("component", written) + "?depth=2")
        assert (response.status_code, response["Location"]) == (301, _local("component", "herder/branch-grpo") + "?depth=2")
    from_api = APIClient().get("/api/v1/graph/local/", {"node": "component:herder:branch-grpo", "depth": "2"})
    assert from_api.status_code == 301
    assert from_api["Location"] == "http://testserver/api/v1/graph/local/?node=component%3Aherder%2Fbranch-grpo&depth=2"
    assert client.get(_local("component", "herder:nope")).status_code == 301
    assert client.get(_local("component", "herder/nope")).status_code == 404


@pytest.mark.parametrize("query", ["?depth=99", "?edges=telepathy", "?depth=2&edges=cites&edges=telepathy"])
def test_choices_a_neighbourhood_refuses_are_a_bad_request_as_on_the_map(contrast_wiki: ContrastWiki, client: Client,
                                                                         query: str) -> None:
    response = client.get(_local("source", "gripforge") + query, HTTP_ACCEPT_LANGUAGE="en")
    map_response = client.get(reverse("wiki:graph-map") + "?mechanism=bogus", HTTP_ACCEPT_LANGUAGE="en")

    assert response.status_code == map_response.status_code == 400
    html = response.content.decode()
    assert '<p class="form-error" id="graph-filter-error" role="alert">' in html and "Select a valid choice" in html
    assert client.get(_local("source", "gripforge") + "?depth=2&edges=cites").status_code == 200


def test_the_comparison_in_a_format_not_offered_is_refused_naming_those_offered(contrast_wiki: ContrastWiki,
                                                                                 client: Client) -> None:
    response = client.get(reverse("wiki:compare"), {"works": "tasksmith,gripforge", "format": "xlsx"},
                          HTTP_ACCEPT_LANGUAGE="en")

    assert response.status_code == 400 and response["Content-Type"] == "text/plain; charset=utf-8"
    assert response.content.decode() == "No format “xlsx”: ask for json or csv, or leave format out for the page."
    assert client.get(reverse("wiki:compare"), {"works": "tasksmith,gripforge", "format": ""}).status_code == 200


def test_a_comparison_asked_for_as_data_answers_its_errors_in_that_format(contrast_wiki: ContrastWiki,
                                                                           client: Client) -> None:
    def get(works: str, export: str) -> tuple[int, str, str]:
        response = client.get(reverse("wiki:compare"), {"works": works, "format": export}, HTTP_ACCEPT_LANGUAGE="en")
        return response.status_code, response["Content-Type"], response.content.decode()

    status, kind, body = get("tasksmith,atlantis", "json")
    assert (status, kind) == (404, "application/json")
    assert client.get(reverse("wiki:compare"), {"works": "tasksmith,atlantis", "format": "json"}).json() == {
        "detail": "No work in the wiki is called “atlantis”.", "code": "not_found", "errors": {}, "codes": {}}
    assert get("tasksmith,atlantis", "csv") == (404, "text/plain; charset=utf-8", "No work in the wiki is called “atlantis”.")
    status, kind, body = get("tasksmith,<bad>", "json")
    assert (status, kind) == (400, "application/json") and '"code": "invalid"' in body and '"works": [' in body
    status, kind, body = get("tasksmith,<bad>", "csv")
    assert (status, kind) == (400, "text/plain; charset=utf-8") and body.startswith("works: ")


def test_the_comparison_as_json_gives_absolute_addresses_as_graphml_does(contrast_wiki: ContrastWiki, client: Client) -> None:
    data = client.get(reverse("wiki:compare"), {"works": "tasksmith,herder:branch-grpo", "format": "json"}).json()

    assert [work["url"] for work in data["works"]] == ["http://testserver/sources/tasksmith/",
                                                      "http://testserver/sources/herder/#component-branch-grpo"]
