"""Citations resolve to works, never to silent duplicates: "did you mean …" in preview and on save."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from tests.factories import claims_of, make_page, make_source
from wiki import markdown as wiki_markdown
from wiki.markdown.citation_markers import missing_citation_titles
from wiki.models import ChangeEvent, Citation, Source
from wiki.services.citations import citations_ensure, citations_resolve
from wiki.services.pages import page_preview, page_save

REACT = "ReAct: Synergizing Reasoning and Acting in Language Models"
TYPO = "ReAct: Synergizing Reasoning and Acting in Language Model"
# A work cited by a title close to ReAct's and confirmed new is called by its whole title, slugged from it.
TYPO_SLUG = "react-synergizing-reasoning-and-acting-in-language-model"
BODY = f"## 关键要点\n\n- ReAct 交替推理与行动。（来源：{TYPO}，§3）\n"


def _react() -> Source:
    return make_source(slug="react", short_name="ReAct", title=REACT)


def test_titles_resolve_exactly_by_normalised_title_by_short_name_or_are_close(db: None) -> None:
    _react()
    _, report = citations_resolve(titles=[REACT, REACT.upper(), "ReAct", TYPO, "A Work Nobody Has Written Yet"])
    outcomes = {m.title: (m.outcome, m.work.slug if m.work else None, [w.slug for w in m.suggestions])
                for m in report.matches}
    assert outcomes == {
        REACT: ("exact", "react", []),
        REACT.upper(): ("normalised", "react", []),
        "ReAct": ("short_name", "react", []),
        TYPO: ("close", None, ["react"]),
        "A Work Nobody Has Written Yet": ("new", None, []),
    }


def test_the_issue_case_preview_shows_did_you_mean_and_save_creates_no_second_work(db: None) -> None:
    react = _react()
    preview = page_preview(body=BODY)
    assert [(m.title, [w.slug for w in m.suggestions]) for m in preview.citations.close] == [(TYPO, ["react"])]
    assert 'cite-missing' in preview.result.html

    sources_before = Source.objects.count()
    saved = page_save(slug="react-notes", title="ReAct notes", body=BODY)
    assert Source.objects.count() == sources_before
    assert not Source.objects.filter(title=TYPO).exists()
    assert [m.title for m in saved.citations.close] == [TYPO]
    assert saved.citations.created == []
    claim = claims_of(saved.revision.page)[0]
    assert not Citation.objects.filter(claim=claim).exists()  # unresolved: cites nothing until corrected

    # Corrected: the claim now cites the existing work, with its locator.
    fixed = page_save(slug="react-notes", title="ReAct notes", body=BODY.replace(TYPO, REACT), base_revision=1)
    assert fixed.citations.close == []
    assert list(Citation.objects.filter(claim__page=fixed.revision.page).values_list("source", "locator")) == [(react.pk, "§3")]
    assert Source.objects.count() == sources_before


def test_a_close_title_confirmed_as_new_becomes_a_work_and_the_kept_sentence_cites_it(db: None) -> None:
    _react()
    first = page_save(slug="react-notes", title="ReAct notes", body=BODY)
    claim = claims_of(first.revision.page)[0]
    saved = page_save(slug="react-notes", title="ReAct notes", body=BODY, base_revision=1, new_works=[TYPO])
    assert [(m.title, m.work.slug if m.work else None, [w.slug for w in m.suggestions]) for m in saved.citations.created] \
        == [(TYPO, TYPO_SLUG, ["react"])]
    new = Source.objects.get(slug=TYPO_SLUG)
    assert (new.title, new.short_name) == (TYPO, TYPO)  # "ReAct" is the other work's name
    assert list(Citation.objects.filter(claim=claim).values_list("source", "locator")) == [(new.pk, "§3")]
    assert ChangeEvent.objects.filter(kind="source", object_id=new.pk, summary="created from a citation").exists()


def test_a_work_added_since_with_the_cited_title_is_cited_at_the_next_save(db: None) -> None:
    _react()
    first = page_save(slug="react-notes", title="ReAct notes", body=BODY)
    claim = claims_of(first.revision.page)[0]
    assert missing_citation_titles(first.revision.page.rendered_html) == {TYPO}
    added = make_source(slug="react-variant", short_name="ReAct variant", title=TYPO)  # e.g. from /sources/new/
    saved = page_save(slug="react-notes", title="ReAct notes", body=BODY, base_revision=1)
    assert [(m.title, m.outcome) for m in saved.citations.matches] == [(TYPO, "exact")]
    assert list(Citation.objects.filter(claim=claim).values_list("source", "locator")) == [(added.pk, "§3")]
    assert missing_citation_titles(saved.revision.page.rendered_html) == set()


def test_a_title_close_to_nothing_is_created_and_said_so(db: None) -> None:
    saved = page_save(slug="n", title="N", body="- x（来源：Entirely Fresh Work on Agents）\n")
    assert [(m.title, m.outcome) for m in saved.citations.created] == [("Entirely Fresh Work on Agents", "created")]
    assert Source.objects.filter(title="Entirely Fresh Work on Agents").count() == 1


def test_editor_preview_and_save_banner_say_did_you_mean_with_a_link_to_the_work(editor_client: Client) -> None:
    _react()
    page = make_page(body="old")
    url = reverse("wiki:page-edit", kwargs={"slug": page.slug})
    form = {"title": page.title, "body": BODY, "base_revision": 1}
    preview = editor_client.post(url, {**form, "preview": "1"}).content.decode()
    assert "data-citation-matches" in preview
    assert f'href="{reverse("wiki:source-detail", kwargs={"slug": "react"})}"' in preview
    assert f'name="new_works" value="{TYPO}" form="page-form"' in preview
    fragment = editor_client.post(reverse("wiki:page-preview"), {"body": BODY, "slug": page.slug}).content.decode()
    assert 'class="did-you-mean" href="/sources/react/"' in fragment

    response = editor_client.post(url, {**form, "save": "1"})
    assert response.status_code == 302
    banner = " ".join(str(m) for m in get_messages(response.wsgi_request))
    assert 'class="did-you-mean" href="/sources/react/"' in banner
    assert TYPO in banner
    assert not Source.objects.filter(title=TYPO).exists()


def test_ticking_cite_as_a_new_work_creates_it_and_the_banner_names_it(editor_client: Client) -> None:
    _react()
    page = make_page(body="old")
    url = reverse("wiki:page-edit", kwargs={"slug": page.slug})
    form = {"title": page.title, "body": BODY, "base_revision": 1, "new_works": [TYPO]}
    preview = editor_client.post(url, {**form, "preview": "1"}).content.decode()
    assert f'name="new_works" value="{TYPO}" form="page-form" checked' in preview  # stays ticked
    response = editor_client.post(url, {**form, "save": "1"})
    banner = " ".join(str(m) for m in get_messages(response.wsgi_request))
    assert f'class="created-work" href="/sources/{TYPO_SLUG}/"' in banner
    assert Source.objects.filter(slug=TYPO_SLUG, title=TYPO).exists()


def test_resolving_takes_a_fixed_number_of_queries(db: None, django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    for n in range(30):
        make_source(title=f"Generated Study {n}: Agents Acting in Environment {n}")
    titles = [f"Generated Study {n}: Agents Acting in Environment {n}" for n in range(10)]
    few = [*titles[:2], "Fresh Title One", "Generated Study 3: Agents Acting in Environmnt 3"]
    many = [*titles, *(f"Fresh Title {n}" for n in range(20)), "Generated Study 3: Agents Acting in Environmnt 3"]
    for cited in (few, many):
        with django_assert_num_queries(3):
            _, report = citations_resolve(titles=cited)
        assert [m.title for m in report.close] == ["Generated Study 3: Agents Acting in Environmnt 3"]


def test_a_work_cited_by_its_arxiv_id_or_doi_is_that_work_and_a_new_one_keeps_the_identifier(db: None) -> None:
    math = make_source(short_name="DeepSeekMath", title="DeepSeekMath: Pushing the Limits of Mathematical Reasoning",
                       arxiv_id="2402.03300")
    react = make_source(short_name="ReAct Paper", title="ReAct Paper Title", doi="10.5555/react.2023")

    sources, report = citations_resolve(titles=["2402.03300", "arXiv:2402.03300v2", "10.48550/arXiv.2402.03300",
                                                "https://doi.org/10.5555/REACT.2023", "2501.00001"])

    assert {title: source.pk for title, source in sources.items()} == {
        "2402.03300": math.pk, "arXiv:2402.03300v2": math.pk, "10.48550/arXiv.2402.03300": math.pk,
        "https://doi.org/10.5555/REACT.2023": react.pk}
    assert {m.outcome for m in report.matches if m.resolved} == {"identifier"}
    created, _ = citations_ensure(titles=["2501.00001"])
    assert created["2501.00001"].arxiv_id == "2501.00001"


def test_works_separated_by_a_semicolon_in_one_citation_are_each_cited_at_its_own_locator(db: None) -> None:
    skillforge = make_source(short_name="SkillForge", title="SkillForge: Evolving Verifiable Skills")
    starharness = make_source(short_name="StarHarness", title="StarHarness: Evolving the Harness")
    body = "## 关键要点\n\n- 两者对照。（来源：SkillForge，p.3；StarHarness、SkillForge，§2）\n"

    page = make_page(slug="semicolons", title="Semicolons", body=body)

    assert wiki_markdown.find_citations(body)[1] == []
    claim = page.claims.get()
    assert list(claim.citations.order_by("position").values_list("source_id", "locator")) == [
        (skillforge.pk, "p.3"), (starharness.pk, "§2"), (skillforge.pk, "§2")]
    page.refresh_from_db()
    rendered = page.rendered_html
    assert "SkillForge</a>，<span class=\"locator\">p.3</span>；<a" in rendered
    assert "SkillForge</a>，<span class=\"locator\">§2</span>）" in rendered


@pytest.mark.parametrize("opener", ["來源", "綜合"])
def test_a_citation_written_in_traditional_characters_is_a_problem_not_plain_text(opener: str) -> None:
    refs, [problem] = wiki_markdown.find_citations(f"- 對照。（{opener}：SkillForge，p.3）\n")

    assert refs == []
    assert f"（{opener}：" in problem.message and "（来源：" in problem.message


def test_an_empty_part_of_a_citation_is_refused() -> None:
    [problem] = wiki_markdown.find_citations("- 对照。（来源：SkillForge，p.3；）\n")[1]

    assert "；" in problem.message
