from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import ContrastWiki, cite, make_page, make_source
from wiki.models import Claim, SearchDocument
from wiki.roles import Account
from wiki.search.index import search_reindex_all, search_reindex_claims
from wiki.search.query import Hit, search
from wiki.services.glossary import glossary_term_create
from wiki.services.sources import source_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def corpus(contrast_wiki: ContrastWiki, editor: Account) -> ContrastWiki:
    """The contrast wiki, a glossary term naming reward in both languages, and notes saying 信用分配, 奖励 and reward."""
    glossary_term_create(fields={"slug": "reward", "name_zh": "奖励", "name_en": "reward"}, user=editor)
    grpo_study = make_source(short_name="GRPO Study", title="GRPO Study: Group Relative Policy Optimisation for Agents")
    make_page(slug="credit-notes", title="Credit notes", body=(
        "## 关键要点\n\n"
        f"- 长程 Agent 的奖励通常在终止时出现，信用分配是核心问题。{cite(contrast_wiki.grpo, locator='p.2')}\n"
        f"- The task reward is binary and arrives at the end of an episode.{cite(grpo_study, locator='§2')}\n"
        f"- GRPO 以组内相对的 outcome 作为 advantage。{cite(grpo_study, locator='§3')}\n"
    ))
    source_update(source=contrast_wiki.harness, fields={"abstract": "PolarHarness evolves the harness around a fixed model, unlike GripForge."})
    return contrast_wiki


def _hits(query: str, kind: str, *, mechanism: str = "", verdict: str = "") -> list[Hit]:
    results = search(query, kinds=[kind], limit=50, mechanism=mechanism, verdict=verdict)
    return [hit for group in results.groups for hit in group.hits]


@pytest.mark.usefixtures("corpus")
def test_chinese_phrase_finds_the_credit_assignment_claim() -> None:
    hits = _hits("信用分配", "claim")

    assert hits
    assert all("信用分配" in Claim.objects.get(pk=hit.object_id).text for hit in hits)
    assert "<mark>信用分配</mark>" in hits[0].snippet_html


@pytest.mark.usefixtures("corpus")
def test_two_character_query_finds_every_reward_passage_in_either_language() -> None:
    """奖励 is the glossary's name for reward: the claims saying either are found."""
    chinese = set(Claim.objects.current().filter(text__contains="奖励").values_list("id", flat=True))
    english = set(Claim.objects.current().filter(text__iregex=r"\mreward").values_list("id", flat=True))

    assert chinese and english - chinese
    assert {hit.object_id for hit in _hits("奖励", "claim")} == chinese | english


@pytest.mark.usefixtures("corpus")
def test_grpo_finds_every_claim_mentioning_it_whatever_the_case() -> None:
    expected = set(Claim.objects.current().filter(text__icontains="grpo").values_list("id", flat=True))

    assert len(expected) >= 3
    assert {hit.object_id for hit in _hits("GRPO", "claim")} == expected
    assert {hit.object_id for hit in _hits("grpo", "claim")} == expected


@pytest.mark.usefixtures("corpus")
def test_lower_case_work_name_finds_the_source_first() -> None:
    hits = _hits("gripforge", "source")

    assert hits[0].title.startswith("GripForge")
    assert "<mark>GripForge</mark>" in hits[0].title_html


@pytest.mark.usefixtures("corpus")
def test_mixed_chinese_english_query_needs_both_parts() -> None:
    hits = _hits("ES 参数", "claim")

    assert hits
    for hit in hits:
        text = Claim.objects.get(pk=hit.object_id).text
        assert "参数" in text and "es" in text.lower()


@pytest.mark.usefixtures("corpus")
def test_single_character_query_matches() -> None:
    assert _hits("奖", "claim")


@pytest.mark.usefixtures("corpus")
def test_results_are_grouped_by_kind_in_a_fixed_order() -> None:
    results = search("GRPO")

    kinds = [group.kind for group in results.groups]
    assert kinds == sorted(kinds, key=["page", "claim", "source", "question"].index)
    assert {"page", "claim", "source"} <= set(kinds)
    assert results.total == sum(group.total for group in results.groups)


@pytest.mark.usefixtures("corpus")
def test_sources_filter_by_mechanism_and_verdict() -> None:
    adjacent = _hits("evoopt", "source", verdict="adjacent")
    harness = _hits("gripforge", "source", mechanism="harness")

    assert [hit.title.split(" — ")[0] for hit in adjacent] == ["EvoOpt"]
    assert harness and all(hit.mechanism == "harness" for hit in harness)
    assert not any(hit.title.startswith("GripForge") for hit in harness)


def test_snippets_escape_html_in_the_text() -> None:
    make_page(slug="xss", title="Payload", body="山竹 <script>alert(1)</script> &amp; 山竹")

    [hit] = _hits("山竹", "page")

    assert "<script>" not in hit.snippet_html
    assert "&lt;script&gt;" in hit.snippet_html
    assert hit.snippet_html.count("<mark>山竹</mark>") == 2


def test_traditional_and_simplified_characters_find_each_other_and_are_highlighted_as_written(client: Client) -> None:
    written_traditional = make_page(slug="tw-notes", title="臺灣筆記", body="長程 Agent 的信用分配與獎勵模型。")
    written_simplified = make_page(slug="cn-notes", title="大陆笔记", body="长程 Agent 的信用分配与奖励模型。")

    assert {h.object_id for h in _hits("獎勵模型", "page")} == {written_traditional.pk, written_simplified.pk}
    assert {h.object_id for h in _hits("奖励模型", "page")} == {written_traditional.pk, written_simplified.pk}
    html = client.get(reverse("wiki:search"), {"q": "獎勵模型", "kind": "page"}).content.decode()
    assert "<mark>獎勵模型</mark>" in html
    assert "<mark>奖励模型</mark>" in html


def test_saving_a_page_updates_its_documents_and_drops_removed_claims(editor: Account) -> None:
    page = make_page(slug="ranking", title="Ranking", body="## 要点\n\n- 蓝莓奖励模型用于排序。\n- 柠檬策略更新。\n", user=editor)
    assert {h.object_id for h in _hits("蓝莓", "claim")} == set(page.claims.filter(text__contains="蓝莓").values_list("id", flat=True))

    from wiki.services.pages import page_save_revision

    page_save_revision(slug="ranking", title="Ranking", body="## 要点\n\n- 柠檬策略更新。\n", user=editor, base_revision=1)

    orphan = page.claims.get(text__contains="蓝莓")
    assert orphan.is_orphaned
    assert _hits("蓝莓", "claim") == []
    assert _hits("柠檬", "claim")


@pytest.mark.usefixtures("corpus")
def test_reindexing_all_removes_documents_of_deleted_objects() -> None:
    page = make_page(slug="temp", title="Temporary 榴莲", body="榴莲")
    assert _hits("榴莲", "page")
    page.delete()

    search_reindex_all()

    assert _hits("榴莲", "page") == []
    assert SearchDocument.objects.filter(kind="claim").count() == Claim.objects.current().count()


def test_reindexing_claims_runs_the_same_queries_for_ten_or_a_thousand() -> None:
    from wiki.devtools.generate import wiki_generate

    generated = wiki_generate(works=50, claims=1000, pages=10, seed=11)
    ids = list(generated.claim_ids)

    with CaptureQueriesContext(connection) as few:
        search_reindex_claims(ids[:10])
    with CaptureQueriesContext(connection) as many:
        search_reindex_claims(ids)

    assert len(many) == len(few)
    assert SearchDocument.objects.filter(kind="claim", object_id__in=ids).count() == 1000


@pytest.mark.usefixtures("corpus")
def test_search_query_count_does_not_grow_with_the_data(client: Client) -> None:
    url = reverse("wiki:search")
    with CaptureQueriesContext(connection) as small:
        assert client.get(url, {"q": "GRPO 奖励"}).status_code == 200

    from wiki.devtools.generate import wiki_generate

    generated = wiki_generate(works=450, claims=400, pages=20, seed=12)
    search_reindex_claims(generated.claim_ids)
    search_reindex_all()
    with CaptureQueriesContext(connection) as large:
        response = client.get(url, {"q": "GRPO 奖励"})

    assert response.status_code == 200
    assert len(large) == len(small)


@pytest.mark.usefixtures("corpus")
def test_search_page_shows_grouped_highlighted_results(client: Client) -> None:
    response = client.get(reverse("wiki:search"), {"q": "信用分配"})

    html = response.content.decode()
    assert response.status_code == 200
    assert "<mark>信用分配</mark>" in html
    assert 'id="group-claim"' in html


def test_search_page_without_query_shows_the_form_only(client: Client) -> None:
    response = client.get(reverse("wiki:search"))

    assert response.status_code == 200
    assert response.context["results"] is None


def test_search_page_refuses_an_unknown_kind_next_to_the_field(client: Client) -> None:
    response = client.get(reverse("wiki:search"), {"q": "GRPO", "kind": "nonsense"})

    assert response.status_code == 200
    assert response.context["form"].errors["kind"]
    assert response.context["results"] is None


@pytest.mark.usefixtures("corpus")
def test_search_reindex_command_reports_what_it_indexed() -> None:
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("search_reindex", stdout=out)

    assert f"{Claim.objects.current().count()} claims" in out.getvalue()
