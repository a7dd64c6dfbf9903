"""The source list with its filters, and the source page with its classification cards."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from classifier.taxonomy import FACT_LABELS, Fact, Verdict
from tests.conftest import FIXTURES
from tests.factories import make_classification, make_source
from tests.wiki.htmltext import html_text, sections_with_class
from wiki.models import Component, Contrast
from django.test import Client

pytestmark = pytest.mark.django_db

SEED_CLASSIFICATIONS = {
    (row["source"], row["component"]): row
    for row in json.loads((FIXTURES / "classifications.json").read_text(encoding="utf-8"))
}


def _listed_slugs(content: str) -> set[str]:
    return set(re.findall(r'<a href="/sources/([^/"]+)/" class="short-name">', content))


def test_the_list_shows_every_source_with_kind_year_and_badges(client: Client) -> None:
    response = client.get(reverse("wiki:source-list"))
    content = response.content.decode()
    assert response.status_code == 200
    assert {"skillforge", "starharness", "webarena", "shepherd"} <= _listed_slugs(content)
    row = content.split('href="/sources/webarena/"')[1].split("</tr>")[0]
    assert "Benchmark / environment" in row and "2023" in row
    assert 'class="badge mech mech-environment"' in row and 'class="badge verdict verdict-not_strict"' in row


def test_filtering_by_mechanism_and_verdict_lists_skillforge_and_not_starharness(client: Client) -> None:
    content = client.get(reverse("wiki:source-list"), {"mechanism": "policy_gradient", "verdict": "strict"}).content.decode()
    listed = _listed_slugs(content)
    assert "skillforge" in listed
    assert "starharness" not in listed
    assert "webarena" not in listed


def test_mechanism_and_verdict_must_hold_for_the_same_classification(client: Client) -> None:
    work = make_source(short_name="Mixed Work")
    component = Component.objects.create(source=work, slug="part", name="Part")
    make_classification(work, mechanism="policy_gradient", verdict="not_strict", rl_update=False)
    make_classification(work, component=component, mechanism="harness", verdict="strict")
    content = client.get(reverse("wiki:source-list"), {"mechanism": "policy_gradient", "verdict": "strict"}).content.decode()
    assert work.slug not in _listed_slugs(content)
    content = client.get(reverse("wiki:source-list"), {"mechanism": "harness", "verdict": "strict"}).content.decode()
    assert work.slug in _listed_slugs(content)


def test_filtering_by_kind_and_year(client: Client) -> None:
    content = client.get(reverse("wiki:source-list"), {"kind": "environment", "year": "2023"}).content.decode()
    assert _listed_slugs(content) == {"webarena", "swe-bench", "agentbench"}


@pytest.mark.parametrize(
    ("params", "field", "message"),
    [
        ({"verdict": "very_strict"}, "verdict", "Select a valid choice"),
        ({"mechanism": "magic"}, "mechanism", "Select a valid choice"),
        ({"year": "twenty"}, "year", "Enter a whole number"),
        ({"year": "1200"}, "year", "greater than or equal to 1900"),
    ],
)
def test_bad_filter_values_show_an_error_next_to_the_field(client, params, field, message) -> None:  # type: ignore[no-untyped-def]
    response = client.get(reverse("wiki:source-list"), params)
    assert response.status_code == 400
    content = response.content.decode()
    errors = re.search(rf'<ul class="errorlist" id="id_{field}_error"[^>]*>(.*?)</ul>', content, re.DOTALL)
    assert errors and message in errors.group(1)
    # screen readers announce the message with the field only if the field points at it
    assert re.search(rf'<(?:input|select)[^>]*aria-describedby="id_{field}_error"[^>]*id="id_{field}"', content)
    assert "Some filter values are not valid" in content
    assert _listed_slugs(content) == set()


def _cards(slug: str, client: Client) -> list[str]:
    response = client.get(reverse("wiki:source-detail", kwargs={"slug": slug}))
    assert response.status_code == 200
    return sections_with_class(response.content.decode(), "classification")


def _assert_card_matches_seed(card: str, row: dict) -> None:  # type: ignore[type-arg]
    assert f'<dd class="verdict-value">{Verdict(row["verdict"]).label}' in card
    assert f'<dd class="algorithm">{row["algorithm"] or "—"}</dd>' in card
    for fact in Fact:
        held = row["facts"][fact.value]
        state = "unknown" if held is None else "yes" if held else "no"
        assert f'<li class="fact {state}" data-fact="{fact.value}">' in card
        assert FACT_LABELS[fact] in card


@pytest.mark.parametrize(
    ("slug", "verdict", "algorithm", "locator"),
    [
        ("skillforge", "strict", "GRPO", None),
        ("lbyl", "strict_narrow", "GRPO", None),
        ("agentic-esopt", "adjacent", "evolution strategy", "pp.3-4"),
        ("facet", "not_strict", "SFT", "§3.1 / §5"),
        ("webarena", "not_strict", "", None),
    ],
)
def test_classification_card_shows_verdict_algorithm_facts_and_evidence(client, slug, verdict, algorithm, locator) -> None:  # type: ignore[no-untyped-def]
    [card] = _cards(slug, client)
    row = SEED_CLASSIFICATIONS[(slug, None)]
    assert row["verdict"] == verdict and row["algorithm"] == algorithm
    assert f'class="badge verdict verdict-{verdict}"' in card
    _assert_card_matches_seed(card, row)
    evidence = card.split('<div class="evidence">')[1]
    assert row["evidence"]["contains"] in html_text(evidence)
    assert re.search(r'href="/wiki/agentic-rl/#claim-[0-9a-f]{10}"', evidence)
    if locator:
        assert f'locator <span class="locator">{locator}</span>' in evidence
    else:
        assert "no locator for this work" in evidence


def test_shepherd_has_one_card_per_component(client: Client) -> None:
    cards = _cards("shepherd", client)
    assert len(cards) == 2
    by_id = {re.search(r'id="classification-([^"]+)"', card).group(1): card for card in cards}  # type: ignore[union-attr]
    assert set(by_id) == {"tree-grpo", "supervisor-cro"}
    _assert_card_matches_seed(by_id["tree-grpo"], SEED_CLASSIFICATIONS[("shepherd", "tree-grpo")])
    _assert_card_matches_seed(by_id["supervisor-cro"], SEED_CLASSIFICATIONS[("shepherd", "supervisor-cro")])
    assert 'locator <span class="locator">§4.3</span>' in by_id["tree-grpo"]


def test_a_fact_the_wiki_says_nothing_about_is_unknown_not_no(client: Client) -> None:
    [card] = _cards("starharness", client)
    for fact in ("interactive_env", "multi_step", "verifiable_reward"):
        assert f'<li class="fact unknown" data-fact="{fact}">' in card
    assert '<li class="fact no" data-fact="rl_update">' in card
    assert html_text(card).count("(unknown)") == 3


def test_each_contrast_links_to_the_side_by_side_view_of_its_two_subjects(client: Client) -> None:
    content = client.get(reverse("wiki:source-detail", kwargs={"slug": "shepherd"})).content.decode()
    url = reverse("wiki:contrast", kwargs={"left": "shepherd:tree-grpo", "right": "shepherd:supervisor-cro"})
    assert f'href="{url}"' in content
    assert client.get(url).status_code == 200


def test_source_page_lists_citing_claims_with_locators_and_contrasts_both_ways(client: Client) -> None:
    content = client.get(reverse("wiki:source-detail", kwargs={"slug": "facet"})).content.decode()
    claims = content.split('id="claims-heading"')[1].split("</section>")[0]
    assert "FACET 是一个重要的非严格反例" in html_text(claims)
    assert '<span class="locator">§3.1 / §5</span>' in claims
    assert "Agentic RL › 关键要点" in html_text(claims)
    contrasts = html_text(content.split('id="contrasts-heading"')[1].split("</section>")[0])
    for contrast in Contrast.objects.with_related().involving([Contrast.objects.filter(left__slug="facet").first().left_id]):  # type: ignore[union-attr]
        assert contrast.axis in contrasts
        assert f"{contrast.left.short_name} vs {contrast.right.short_name}" in contrasts


def test_a_contrast_shows_on_both_of_its_sides(client: Client) -> None:
    left, right = make_source(short_name="Left Work"), make_source(short_name="Right Work")
    Contrast.objects.create(left=left, right=right, axis="在线 vs 离线 / online vs offline")
    for source in (left, right):
        text = html_text(client.get(source.get_absolute_url()).content.decode())
        assert "Left Work vs Right Work 在线 vs 离线 / online vs offline" in text


def test_bibliographic_fields_are_shown_and_unsafe_urls_are_not_links(client: Client) -> None:
    source = make_source(short_name="Biblio", authors="Ada Lovelace; Alan Turing", year=2024, venue="NeurIPS",
                         arxiv_id="2401.00001", doi="10.1000/xyz", url="javascript:alert(1)")
    content = client.get(source.get_absolute_url()).content.decode()
    assert "Ada Lovelace; Alan Turing" in content and "NeurIPS" in content
    assert 'href="https://arxiv.org/abs/2401.00001"' in content
    assert 'href="https://doi.org/10.1000/xyz"' in content
    assert 'href="javascript:' not in content


def test_an_unknown_source_is_a_404(client: Client) -> None:
    assert client.get(reverse("wiki:source-detail", kwargs={"slug": "no-such-work"})).status_code == 404


def test_the_list_is_alphabetical_whatever_the_case_of_the_names(client: Client) -> None:
    content = client.get(reverse("wiki:source-list")).content.decode()
    slugs = re.findall(r'<a href="/sources/([^/"]+)/" class="short-name">', content)
    assert slugs.index("agent-lightning") < slugs.index("alfworld") < slugs.index("astar")
