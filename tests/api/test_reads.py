from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import ContrastWiki, cite, make_page, make_source
from wiki.models import Claim, Classification, GlossaryTerm, OpenQuestion, Page, Source

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("reads")]


@pytest.fixture
def reads(contrast_wiki: ContrastWiki) -> None:
    """The contrast wiki, and notes that link to its page and speak of credit assignment."""
    make_page(slug="contrast-notes", title="Contrast notes: a survey", body=(
        f"读 [[{contrast_wiki.page.title}]] 的笔记。\n\n## 关键要点\n\n"
        f"- 长程 Agent 的奖励稀疏，信用分配是核心问题。{cite(contrast_wiki.grpo, locator='p.2')}\n"
    ))


def test_page_list_has_slugs_titles_and_links(api: APIClient) -> None:
    response = api.get("/api/v1/pages/")

    assert response.status_code == 200
    slugs = [row["slug"] for row in response.json()["results"]]
    assert "contrast-wiki" in slugs
    assert response.json()["count"] == Page.objects.count()


def test_page_detail_has_rendered_html_revision_and_backlinks(api: APIClient) -> None:
    data = api.get("/api/v1/pages/contrast-wiki/").json()

    assert data["title"] == "Contrast Wiki"
    assert 'class="claim"' in data["rendered_html"]
    assert data["revision"] == Page.objects.get(slug="contrast-wiki").revisions.count()
    assert {"slug": "contrast-notes", "title": "Contrast notes: a survey"} in data["backlinks"]
    assert data["toc"] and {"level", "id", "title"} <= set(data["toc"][0])


def test_page_revisions_and_one_revision(api: APIClient) -> None:
    listing = api.get("/api/v1/pages/contrast-wiki/revisions/").json()
    one = api.get("/api/v1/pages/contrast-wiki/revisions/1/").json()

    assert listing["results"][-1]["number"] == 1
    assert "body" not in listing["results"][0]
    assert one["number"] == 1 and one["body"]


def test_page_backlinks_endpoint(api: APIClient) -> None:
    assert api.get("/api/v1/pages/contrast-wiki/backlinks/").json() == [
        {"slug": "contrast-notes", "title": "Contrast notes: a survey"}
    ]


def test_pages_filter_by_text(api: APIClient) -> None:
    data = api.get("/api/v1/pages/", {"q": "survey"}).json()

    assert [row["slug"] for row in data["results"]] == ["contrast-notes"]


def test_source_detail_has_classification_with_rubric_verdict(api: APIClient) -> None:
    data = api.get("/api/v1/sources/evoopt/").json()

    [classification] = data["classifications"]
    assert classification["mechanism"] == "evolution_strategies"
    assert classification["verdict"] == classification["rubric_verdict"] == "adjacent"


def test_sources_filter_by_mechanism_and_verdict_on_the_same_classification(api: APIClient) -> None:
    strict_pg = api.get("/api/v1/sources/", {"mechanism": "policy_gradient", "verdict": "strict", "page_size": "200"}).json()
    adjacent = api.get("/api/v1/sources/", {"verdict": "adjacent"}).json()

    expected = set(Classification.objects.filter(mechanism="policy_gradient", verdict="strict").values_list("source__slug", flat=True))
    assert {row["slug"] for row in strict_pg["results"]} == expected
    assert [row["slug"] for row in adjacent["results"]] == ["evoopt"]


def test_sources_filter_by_kind_year_range_and_text(api: APIClient) -> None:
    from tests.factories import make_source

    make_source(slug="old-work", short_name="OldWork", year=2019, kind="blog", abstract="A study of 榴莲 agents")
    make_source(slug="new-work", short_name="NewWork", year=2025, kind="blog")

    def slugs(**params: str | int) -> list[str]:
        return [row["slug"] for row in api.get("/api/v1/sources/", {"page_size": "200", **params}).json()["results"]]

    assert slugs(kind="blog", year_min=2018, year_max=2020) == ["old-work"]
    assert slugs(kind="blog", year=2025) == ["new-work"]
    assert slugs(q="榴莲") == ["old-work"]


def test_sources_order_by_year_descending(api: APIClient) -> None:
    from tests.factories import make_source

    make_source(slug="y2020", year=2020)
    make_source(slug="y2024", year=2024)

    rows = api.get("/api/v1/sources/", {"ordering": "-year", "year_min": "2020"}).json()["results"]
    assert [row["year"] for row in rows] == sorted((row["year"] for row in rows), reverse=True)
    assert rows[0]["year"] >= 2024


@pytest.mark.parametrize("ordering", ["year", "-year", "short_name"])
def test_walking_the_pages_of_an_ordering_with_ties_sees_every_work_once(api: APIClient, ordering: str) -> None:
    works = [Source(slug=f"tied-{i}", short_name="Tied", title=f"Tied work {i}", year=2021) for i in range(120)]
    for work in works:
        work.derive_keys()
    Source.objects.bulk_create(works)

    seen: list[str] = []
    url: str | None = f"/api/v1/sources/?ordering={ordering}&page_size=7&q=tied"
    while url:
        body = api.get(url).json()
        seen += [row["slug"] for row in body["results"]]
        url = body["next"]

    assert sorted(seen) == sorted(f"tied-{i}" for i in range(120))


@pytest.mark.parametrize("query", ["?ordering=short_name&q=casecheck", "?q=casecheck", "?ordering=-short_name&q=casecheck"])
def test_names_are_ordered_whatever_their_case(api: APIClient, query: str) -> None:
    for name in ("Biblatex Casecheck", "arXiv Casecheck", "Zeta Casecheck", "beta Casecheck"):
        make_source(short_name=name, title=f"{name}: a work")

    names = [row["short_name"] for row in api.get(f"/api/v1/sources/{query}").json()["results"]]

    expected = ["arXiv Casecheck", "beta Casecheck", "Biblatex Casecheck", "Zeta Casecheck"]
    assert names == (expected[::-1] if "-short_name" in query else expected)


def test_claims_have_citations_with_locators_and_filter_by_source_status_page(api: APIClient) -> None:
    rows = api.get("/api/v1/claims/", {"source": "gripforge"}).json()["results"]

    assert rows and all(any(c["source"] == "gripforge" for c in row["citations"]) for row in rows)
    assert all({"source", "source_name", "locator", "kind"} == set(c) for row in rows for c in row["citations"])
    by_page = api.get("/api/v1/claims/", {"page_slug": "contrast-wiki", "status": "needs_verification", "page_size": "200"}).json()
    assert by_page["count"] == Claim.objects.filter(page__slug="contrast-wiki", status="needs_verification").count()


def test_claim_detail_by_id(api: APIClient) -> None:
    claim = Claim.objects.current().first()
    assert claim is not None

    data = api.get(f"/api/v1/claims/{claim.pk}/").json()

    assert data["text"] == claim.text and data["page"] == claim.page.slug


def test_classifications_filter_and_expose_rubric_verdict(api: APIClient) -> None:
    rows = api.get("/api/v1/classifications/", {"source": "herder"}).json()["results"]

    assert len(rows) == Classification.objects.filter(source__slug="herder").count() >= 2
    assert all(row["rubric_verdict"] in {"strict", "strict_narrow", "adjacent", "not_strict"} for row in rows)


def test_contrasts_filter_by_work(api: APIClient) -> None:
    rows = api.get("/api/v1/contrasts/", {"work": "gripforge"}).json()["results"]

    assert rows and all("gripforge" in (row["left"], row["right"]) for row in rows)


def test_questions_filter_by_status_and_priority(api: APIClient) -> None:
    rows = api.get("/api/v1/questions/", {"status": "open", "priority": "high", "page_size": "200"}).json()["results"]

    assert {row["id"] for row in rows} == set(OpenQuestion.objects.filter(status="open", priority="high").values_list("id", flat=True))


def test_question_detail_by_id(api: APIClient) -> None:
    question = OpenQuestion.objects.first()
    assert question is not None

    assert api.get(f"/api/v1/questions/{question.pk}/").json()["title"] == question.title


def test_search_endpoint_groups_and_highlights(api: APIClient) -> None:
    data = api.get("/api/v1/search/", {"q": "信用分配"}).json()

    assert data["total"] >= 2
    claims = next(group for group in data["groups"] if group["kind"] == "claim")
    assert "<mark>信用分配</mark>" in claims["results"][0]["snippet_html"]


def test_search_endpoint_names_the_glossary_terms_it_searched_and_suggests_close_ones(api: APIClient) -> None:
    GlossaryTerm.objects.create(slug="credit-assignment", name_zh="信用分配", name_en="credit assignment")

    named = api.get("/api/v1/search/", {"q": "credit assignment"}).json()
    nothing = api.get("/api/v1/search/", {"q": "credit asignment"}).json()

    [term] = named["terms"]
    assert (term["slug"], term["name_zh"]) == ("credit-assignment", "信用分配")
    assert {"信用分配", "credit assignment"} <= set(term["names"])
    assert named["suggestions"] == [] and named["total"] >= 2  # found by its Chinese name too
    assert nothing["groups"] == [] and nothing["terms"] == []
    assert nothing["suggestions"][0] == {"slug": "credit-assignment", "name": "credit assignment",
                                         "name_zh": "信用分配", "name_en": "credit assignment"}


def test_search_endpoint_offers_works_and_pages_named_close_when_nothing_matched(api: APIClient) -> None:
    make_source(slug="skillforge", short_name="SkillForge", title="SkillForge")

    found = api.get("/api/v1/search/", {"q": "SkillForge"}).json()
    nothing = api.get("/api/v1/search/", {"q": "skilforge"}).json()

    assert found["close"] == [] and found["total"] >= 1
    assert nothing["groups"] == []
    assert nothing["close"] == [{"kind": "source", "name": "SkillForge", "slug": "skillforge", "url": "/sources/skillforge/"}]


def test_search_endpoint_filters_by_kind_and_pages_like_every_list(api: APIClient) -> None:
    first = api.get("/api/v1/search/", {"q": "GRPO", "kind": "claim", "page_size": "2"}).json()
    second = api.get("/api/v1/search/", {"q": "GRPO", "kind": "claim", "page_size": "2", "page": "2"}).json()

    assert [group["kind"] for group in first["groups"]] == ["claim"]
    ids = [hit["object_id"] for hit in first["groups"][0]["results"]]
    more = [hit["object_id"] for hit in second["groups"][0]["results"]]
    assert len(ids) == 2 and not set(ids) & set(more)
    assert (second["page"], second["page_size"]) == (2, 2)


def test_search_counts_the_same_on_every_page_and_names_the_kinds_with_nothing_left(api: APIClient) -> None:
    pages = [api.get("/api/v1/search/", {"q": "GRPO", "page_size": "2", "page": str(n)}).json() for n in (1, 2, 50)]

    first = {group["kind"]: group["total"] for group in pages[0]["groups"]}
    assert len(first) >= 2 and any(total > 2 for total in first.values())
    for page in pages:
        assert page["total"] == pages[0]["total"] == sum(first.values())
        assert {group["kind"]: group["total"] for group in page["groups"]} == first
    # a kind whose matches are all on earlier pages is listed with its count and no results
    assert all(group["results"] == [] for group in pages[2]["groups"])
    short = [kind for kind, total in first.items() if total <= 2]
    assert all(group["results"] == [] for group in pages[1]["groups"] if group["kind"] in short)
