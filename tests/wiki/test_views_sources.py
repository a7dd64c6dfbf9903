"""The source list with its filters, and the source page with its classification cards."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from classifier.taxonomy import FACT_LABELS, Fact, Verdict
from tests.factories import cite, make_classification, make_source, make_wiki
from tests.wiki.htmltext import html_text, sections_with_class
from wiki.graph.layout import axis_text
from wiki.models import Classification, Component, Contrast, Source
from wiki.services.pages import page_save_revision

pytestmark = pytest.mark.django_db



def _row(slug: str, component: str | None = None) -> dict[str, Any]:
    """A classification as its card should show it: verdict, algorithm, the four facts and the evidence claim."""
    c = Classification.objects.select_related("evidence_claim").get(source__slug=slug, component__slug=component)
    facts = {fact.value: getattr(c, fact.value) for fact in Fact}
    return {"verdict": c.verdict, "algorithm": c.algorithm, "facts": facts,
            "evidence": c.evidence_claim.text[:40] if c.evidence_claim else ""}


def _listed_slugs(content: str) -> set[str]:
    return set(re.findall(r'<a href="/sources/([^/"]+)/" class="short-name">', content))


@pytest.mark.usefixtures("contrast_wiki")
def test_the_list_shows_every_source_with_kind_year_and_badges(client: Client) -> None:
    response = client.get(reverse("wiki:source-list"))
    content = response.content.decode()
    assert response.status_code == 200
    assert {"gripforge", "polarharness", "shopworld", "herder"} <= _listed_slugs(content)
    row = content.split('href="/sources/shopworld/"')[1].split("</tr>")[0]
    assert "Benchmark / environment" in row and "2024" in row
    assert 'class="badge mech mech-environment"' in row and 'class="badge verdict verdict-not_strict"' in row


@pytest.mark.usefixtures("contrast_wiki")
def test_filtering_by_mechanism_and_verdict_lists_the_strict_policy_gradient_work_and_not_the_harness(client: Client) -> None:
    content = client.get(reverse("wiki:source-list"), {"mechanism": "policy_gradient", "verdict": "strict"}).content.decode()
    listed = _listed_slugs(content)
    assert "gripforge" in listed
    assert "polarharness" not in listed
    assert "shopworld" not in listed


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
    for slug, kind, year in [("shop-bench", "environment", 2019), ("code-bench", "environment", 2019), ("task-bench", "environment", 2019),
                             ("desk-bench", "environment", 2018), ("gym-paper", "paper", 2019)]:
        make_source(slug=slug, short_name=slug.title(), kind=kind, year=year)
    content = client.get(reverse("wiki:source-list"), {"kind": "environment", "year": "2019"}).content.decode()
    assert _listed_slugs(content) == {"shop-bench", "code-bench", "task-bench"}


@pytest.mark.parametrize(
    ("params", "field", "message"),
    [
        ({"verdict": "very_strict"}, "verdict", "Select a valid choice"),
        ({"mechanism": "magic"}, "mechanism", "Select a valid choice"),
        ({"year": "twenty"}, "year", "Enter a whole number"),
        ({"year": "1200"}, "year", "greater than or equal to 1400"),
    ],
)
def test_bad_filter_values_show_an_error_next_to_the_field(client, params, field, message) -> None:  # type: ignore[no-untyped-def]
    response = client.get(reverse("wiki:source-list"), params)
    assert response.status_code == 400
    content = response.content.decode()
    errors = re.search(rf'<div id="id_{field}_error" role="alert"><ul class="errorlist">(.*?)</ul>', content, re.DOTALL)
    assert errors and message in errors.group(1)
    # screen readers announce the message with the field only if the field points at it
    assert re.search(rf'<(?:input|select)[^>]*aria-describedby="id_{field}_error"[^>]*id="id_{field}"', content)
    assert "Some filter values are not valid" in content
    assert _listed_slugs(content) == set()


def _cards(slug: str, client: Client) -> list[str]:
    response = client.get(reverse("wiki:source-detail", kwargs={"slug": slug}))
    assert response.status_code == 200
    return sections_with_class(response.content.decode(), "classification")


def _assert_card_matches(card: str, row: dict[str, Any]) -> None:
    assert f'<dd class="verdict-value">{Verdict(row["verdict"]).label}' in card
    assert f'<dd class="algorithm">{row["algorithm"] or "—"}</dd>' in card
    for fact in Fact:
        held = row["facts"][fact.value]
        state = "unknown" if held is None else "yes" if held else "no"
        assert f'<li class="fact {state}" data-fact="{fact.value}">' in card
        assert FACT_LABELS[fact] in card


@pytest.mark.usefixtures("contrast_wiki")
@pytest.mark.parametrize(
    ("slug", "verdict", "algorithm", "locator"),
    [
        ("gripforge", "strict", "GRPO", None),
        ("lookfirst", "strict_narrow", "GRPO", None),
        ("evoopt", "adjacent", "evolution strategy", "pp.3-4"),
        ("tasksmith", "not_strict", "SFT", "§3.1 / §5"),
        ("shopworld", "not_strict", "", None),
    ],
)
def test_classification_card_shows_verdict_algorithm_facts_and_evidence(client, slug, verdict, algorithm, locator) -> None:  # type: ignore[no-untyped-def]
    [card] = _cards(slug, client)
    row = _row(slug)
    assert row["verdict"] == verdict and row["algorithm"] == algorithm
    assert f'class="badge verdict verdict-{verdict}"' in card
    _assert_card_matches(card, row)
    evidence = card.split('<div class="evidence">')[1]
    assert row["evidence"] and row["evidence"] in html_text(evidence)
    assert re.search(r'href="/wiki/contrast-wiki/#claim-[0-9a-f]{10}"', evidence)
    if locator:
        assert f'locator <span class="locator">{locator}</span>' in evidence
    else:
        assert "no locator for this work" in evidence


@pytest.mark.usefixtures("contrast_wiki")
def test_a_work_has_one_card_per_component(client: Client) -> None:
    cards = _cards("herder", client)
    assert len(cards) == 2
    by_id = {re.search(r'id="classification-([^"]+)"', card).group(1): card for card in cards}  # type: ignore[union-attr]
    assert set(by_id) == {"branch-grpo", "overseer-cro"}
    _assert_card_matches(by_id["branch-grpo"], _row("herder", "branch-grpo"))
    _assert_card_matches(by_id["overseer-cro"], _row("herder", "overseer-cro"))
    assert 'locator <span class="locator">§4.3</span>' in by_id["branch-grpo"]


@pytest.mark.usefixtures("contrast_wiki")
def test_a_fact_the_wiki_says_nothing_about_is_unknown_not_no(client: Client) -> None:
    [card] = _cards("polarharness", client)
    for fact in ("interactive_env", "multi_step", "verifiable_reward"):
        assert f'<li class="fact unknown" data-fact="{fact}">' in card
    assert '<li class="fact no" data-fact="rl_update">' in card
    assert html_text(card).count("(unknown)") == 3


@pytest.mark.usefixtures("contrast_wiki")
def test_each_contrast_links_to_the_side_by_side_view_of_its_two_subjects(client: Client) -> None:
    content = client.get(reverse("wiki:source-detail", kwargs={"slug": "herder"})).content.decode()
    url = reverse("wiki:contrast", kwargs={"left": "herder:branch-grpo", "right": "herder:overseer-cro"})
    assert f'href="{url}"' in content
    assert client.get(url).status_code == 200


@pytest.mark.usefixtures("contrast_wiki")
def test_source_page_lists_citing_claims_with_locators_and_contrasts_both_ways(client: Client) -> None:
    content = client.get(reverse("wiki:source-detail", kwargs={"slug": "tasksmith"})).content.decode()
    claims = content.split('id="claims-heading"')[1].split("</section>")[0]
    assert "TaskSmith 在可执行 terminal 环境中生成 rollout" in html_text(claims)
    assert '<span class="locator">§3.1 / §5</span>' in claims
    assert "Contrast Wiki › 关键要点" in html_text(claims)
    contrasts = html_text(content.split('id="contrasts-heading"')[1].split("</section>")[0])
    for contrast in Contrast.objects.with_related().involving([Contrast.objects.filter(left__slug="tasksmith").first().left_id]):  # type: ignore[union-attr]
        with translation.override("en"):
            assert axis_text(contrast.axis) in contrasts
        assert f"{contrast.left.short_name} vs {contrast.right.short_name}" in contrasts


def test_a_contrast_shows_on_both_of_its_sides(client: Client) -> None:
    left, right = make_source(short_name="Left Work"), make_source(short_name="Right Work")
    Contrast.objects.create(left=left, right=right, axis="在线 vs 离线 / online vs offline")
    for source in (left, right):
        content = client.get(source.get_absolute_url()).content.decode()
        contrasts = html_text(content.split('id="contrasts-heading"')[1].split("</section>")[0])
        assert "Left Work vs Right Work online vs offline" in contrasts
        assert "在线" not in contrasts


def test_bibliographic_fields_are_shown_and_unsafe_urls_are_not_links(client: Client) -> None:
    source = make_source(short_name="Biblio", authors="Ada Lovelace; Alan Turing", year=2024, venue="NeurIPS",
                         arxiv_id="2401.00001", doi="10.1000/xyz", url="javascript:alert(1)")
    content = client.get(source.get_absolute_url()).content.decode()
    assert "Ada Lovelace; Alan Turing" in html_text(content) and "NeurIPS" in content
    assert 'href="https://arxiv.org/abs/2401.00001"' in content
    assert 'href="https://doi.org/10.1000/xyz"' in content
    assert 'href="javascript:' not in content


def test_an_unknown_source_is_a_404(client: Client) -> None:
    assert client.get(reverse("wiki:source-detail", kwargs={"slug": "no-such-work"})).status_code == 404


def test_the_list_is_alphabetical_whatever_the_case_of_the_names(client: Client) -> None:
    for slug, name in [("astro", "Astro"), ("alfroom", "ALFRoom"), ("agent-lamp", "Agent Lamp")]:
        make_source(slug=slug, short_name=name)
    content = client.get(reverse("wiki:source-list")).content.decode()
    slugs = re.findall(r'<a href="/sources/([^/"]+)/" class="short-name">', content)
    assert slugs.index("agent-lamp") < slugs.index("alfroom") < slugs.index("astro")


def test_chinese_names_sort_by_their_pinyin_among_latin_ones(client: Client) -> None:
    for slug, name in [("zhi-neng-ti", "智能体强化学习综述"), ("tong-yi", "通义深度研究"), ("a-li", "阿里巴巴通义"),
                       ("webarena", "WebArena"), ("bandit", "Bandit"), ("tree", "Tree-GRPO")]:
        make_source(slug=slug, short_name=name)

    content = client.get(reverse("wiki:source-list"), HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()

    slugs = re.findall(r'<a href="/sources/([^/"]+)/" class="short-name"', content)
    assert slugs == ["a-li", "bandit", "tong-yi", "tree", "webarena", "zhi-neng-ti"]


def test_the_number_of_sources_is_grouped_in_english_and_not_in_chinese(client: Client) -> None:
    works = [Source(slug=f"work-{i}", short_name=f"Work {i}", title=f"Work number {i}") for i in range(1234)]
    for work in works:
        work.derive_keys()
    Source.objects.bulk_create(works)

    english = client.get(reverse("wiki:source-list"), headers={"accept-language": "en"}).content.decode()
    chinese = client.get(reverse("wiki:source-list"), headers={"accept-language": "zh-CN"}).content.decode()

    assert "1,234 sources." in english
    assert "1234 个来源。" in chinese


@pytest.mark.parametrize("number", ["0", "-1"])
def test_a_page_number_below_one_shows_the_first_page_not_the_last(client: Client, number: str) -> None:
    works = [Source(slug=f"work-{i:03}", short_name=f"Work {i:03}", title=f"Work number {i}") for i in range(60)]
    for work in works:
        work.derive_keys()
    Source.objects.bulk_create(works)

    response = client.get(reverse("wiki:source-list"), {"p": number})

    assert response.status_code == 200 and response.context["page_obj"].number == 1


def test_the_list_narrows_to_the_works_not_classified_yet_or_to_the_classified(client: Client) -> None:
    classified, waiting = make_source(short_name="Sorted"), make_source(short_name="Waiting")
    make_classification(classified)

    unclassified = client.get(reverse("wiki:source-list"), {"classified": "false"}).content.decode()
    done = client.get(reverse("wiki:source-list"), {"classified": "true"}).content.decode()
    api = client.get("/api/v1/sources/", {"classified": "false"}).json()

    assert f'href="{waiting.get_absolute_url()}"' in unclassified and f'href="{classified.get_absolute_url()}"' not in unclassified
    assert f'href="{classified.get_absolute_url()}"' in done and f'href="{waiting.get_absolute_url()}"' not in done
    assert [work["slug"] for work in api["results"]] == [waiting.slug]
    assert client.get(reverse("wiki:source-list"), {"classified": "maybe"}).status_code == 400


@pytest.mark.django_db
def test_a_list_filter_that_finds_nothing_offers_the_same_words_to_search(client: Client) -> None:
    make_wiki()
    chinese = client.get(reverse("wiki:source-list"), {"q": "循环信用 & co"}, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    english = client.get(reverse("wiki:source-list"), {"q": "循环信用 & co"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    found = client.get(reverse("wiki:source-list"), {"q": "SkillLoop"}).content.decode()

    link = '<a href="/search/?kind=source&amp;q=%E5%BE%AA%E7%8E%AF%E4%BF%A1%E7%94%A8+%26+co">“<span lang="zh-Hans">循环信用 &amp; co</span>”</a>'
    assert f"改为搜索{link}：" in chinese and f" Search for {link} instead" in english
    assert '(<span lang="zh-Hans">策略梯度</span> finds policy gradient)' in english
    assert "/search/?kind=source" not in found


def test_an_evidence_locator_without_an_evidence_claim_is_shown(client: Client) -> None:
    work = make_source(slug="located", short_name="Located")
    make_classification(work, evidence_locator="p.3, §2")

    text = html_text(client.get(work.get_absolute_url()).content.decode())

    assert "In the work at p.3, §2; no evidence claim is recorded." in text


def test_authors_are_listed_as_the_readers_language_lists_people(client: Client) -> None:
    work = make_source(slug="listed", short_name="Listed", authors="张三; 李四; Sutton, Richard S.")

    chinese = html_text(client.get(work.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode())
    english = html_text(client.get(work.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode())

    assert "张三、李四、Sutton, Richard S." in chinese
    assert "张三; 李四; Sutton, Richard S." in english


@pytest.mark.parametrize(("params", "opened"), [
    ({}, False), ({"p": "1"}, False), ({"kind": ""}, False),
    ({"kind": "paper"}, True), ({"sort": "-year"}, True), ({"year": "twenty"}, True),
])
def test_the_filters_open_on_a_phone_when_one_is_set_or_wrong(client: Client, params: dict[str, str], opened: bool) -> None:
    """A phone shows the filters folded, so that the list starts on the first screen, unless they say something."""
    content = client.get(reverse("wiki:source-list"), params).content.decode()
    panel = re.search(r'<details class="filter-panel"( open)?>\s*<summary>Filter sources</summary>\s*<form method="get" class="filters"', content)
    assert panel and bool(panel.group(1)) == opened


def test_a_suggestion_shows_the_first_texts_it_read_and_counts_the_others_with_a_link_to_them_all(client: Client) -> None:
    work = make_source(slug="crowdforge", short_name="CrowdForge", title="CrowdForge: web agents trained with GRPO",
                       abstract="We train the web agent with GRPO on WebArena using the task success reward.")
    make_classification(work)
    bullets = "\n".join(f"- 第 {n} 号论断：CrowdForge 用 GRPO 更新 agent policy{cite(work)}。" for n in range(40))
    page_save_revision(slug="crowd", title="Crowd", body=f"## 关键要点\n\n{bullets}")

    html = client.get(work.get_absolute_url(), headers={"accept-language": "en"}).content.decode()

    shown = re.search(r'<p class="suggestion-text"[^>]*>(.*?)</p>', html, re.S)
    assert shown is not None
    text = html_text(shown.group(1))
    # The abstract and the first four claims, whole; not the other 36, which a work cited 2,000 times printed all of.
    assert "WebArena" in text and "第 3 号论断" in text and "第 4 号论断" not in text
    assert "第 39 号论断" not in text
    assert "And 36 more claims the classifier read, not shown here." in html
    assert f'<a href="{reverse("wiki:source-claims", kwargs={"slug": "crowdforge"})}">All claims citing CrowdForge' in html
    # What each highlighted phrase weighed lists the phrases shown, not those of the claims left out.
    weighed = re.search(r'<details class="evidence-list"><summary>[^<]*</summary><ul>(.*?)</ul>', html, re.S)
    assert weighed is not None
    assert weighed.group(1).count("<li>") == shown.group(1).count("<mark") > 4


@pytest.mark.django_db
def test_the_search_a_list_offers_instead_gives_back_no_control_character(client: Client) -> None:
    make_wiki()
    html = client.get(reverse("wiki:source-list"), {"q": "循环\x07信用\x1b co"}).content.decode()

    link = '<a href="/search/?kind=source&amp;q=%E5%BE%AA%E7%8E%AF%E4%BF%A1%E7%94%A8+co">“<span lang="zh-Hans">循环信用 co</span>”</a>'
    assert link in html and "\x07" not in html and "\x1b" not in html
