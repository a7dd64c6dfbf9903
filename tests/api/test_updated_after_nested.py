"""``?updated_after=`` finds an item whose representation changed in other rows: a claim's citations and works, a
question's links, the names of the pages and works an item shows, a work's components; through a service, the API,
a merge, ``QuerySet.update``, ``bulk_create`` and hand-written SQL alike."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import pytest
from django.db import connection
from django.db.models import F
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import (
    cite,
    make_claim,
    make_classification,
    make_contrast,
    make_editor,
    make_question,
    make_source,
)
from wiki.models import Citation, Claim, Component, GlossaryTerm, OpenQuestion, Source
from wiki.services.claims import CitationInput, claim_update
from wiki.services.components import component_create
from wiki.services.merges import source_merge
from wiki.services.page_moves import page_move
from wiki.services.pages import page_save_revision
from wiki.services.questions import question_update
from wiki.services.sources import source_update

pytestmark = pytest.mark.django_db

CLAIMS = "/api/v1/claims/"
QUESTIONS = "/api/v1/questions/"
SOURCES = "/api/v1/sources/"
CLASSIFICATIONS = "/api/v1/classifications/"
CONTRASTS = "/api/v1/contrasts/"
GLOSSARY = "/api/v1/glossary/"


def _listed(api: APIClient, url: str, moment: datetime, key: str = "id") -> set[object]:
    response = api.get(url, {"updated_after": moment.isoformat(), "page_size": "200"})
    assert response.status_code == 200, response.content[:300]
    return {row[key] for row in response.json()["results"]}


def _seen_only_by_a_walk_from_before(api: APIClient, change: Callable[[], object],
                                     *items: tuple[str, object, str]) -> None:
    """Each of ``items`` (list, key value, key) is listed by ``updated_after`` taken just before ``change``, and not by
    one taken after it."""
    before = timezone.now()
    change()
    after = timezone.now()
    for url, value, key in items:
        assert value in _listed(api, url, before, key), url
        assert value not in _listed(api, url, after, key), url


@pytest.fixture
def claim() -> Claim:
    return make_claim("SkillForge updates its policy with GRPO", cites=[make_source(short_name="SkillForge")], locator="pp.3-4")


def test_a_claim_whose_citations_are_edited_in_its_form_is_listed(api: APIClient, claim: Claim) -> None:
    star = make_source(short_name="StarHarness")
    work = claim.citations.get().source

    _seen_only_by_a_walk_from_before(api, lambda: claim_update(
        claim=claim, status=claim.status, about=[], user=make_editor(),
        citations=[CitationInput(work, "pp.3-4", "cited"), CitationInput(star, "§2", "synthesised")]), (CLAIMS, claim.pk, "id"))


def test_a_claim_whose_locator_a_page_edit_changes_is_listed(api: APIClient, claim: Claim) -> None:
    page, work = claim.page, claim.citations.get().source
    body = page.body.replace(cite(work, locator="pp.3-4"), cite(work, locator="§5"))
    assert body != page.body

    _seen_only_by_a_walk_from_before(api, lambda: page_save_revision(
        slug=page.slug, title=page.title, summary=page.summary, body=body, user=make_editor()), (CLAIMS, claim.pk, "id"))
    assert Claim.objects.get(pk=claim.pk).citations.get().locator == "§5"


def test_a_claim_whose_citations_a_script_writes_is_listed(api: APIClient, claim: Claim) -> None:
    star = make_source(short_name="StarHarness")
    citations = Citation.objects.filter(claim=claim)

    _seen_only_by_a_walk_from_before(api, lambda: citations.update(kind="synthesised"), (CLAIMS, claim.pk, "id"))
    _seen_only_by_a_walk_from_before(api, lambda: Citation.objects.bulk_create(
        [Citation(claim=claim, source=star, locator="§1", position=1)]), (CLAIMS, claim.pk, "id"))

    def delete_by_hand() -> None:
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM wiki_citation WHERE claim_id = %s AND source_id = %s", [claim.pk, star.pk])

    _seen_only_by_a_walk_from_before(api, delete_by_hand, (CLAIMS, claim.pk, "id"))


def test_a_citation_rewritten_as_it_was_moves_nothing(api: APIClient, claim: Claim) -> None:
    before = timezone.now()
    Citation.objects.filter(claim=claim).update(locator=F("locator"))

    assert claim.pk not in _listed(api, CLAIMS, before)


def test_a_claim_made_about_a_work_by_a_contrast_is_listed(api: APIClient, claim: Claim) -> None:
    left, right = claim.citations.get().source, make_source(short_name="StarHarness")

    _seen_only_by_a_walk_from_before(api, lambda: make_contrast(left, right, claim=claim), (CLAIMS, claim.pk, "id"))
    assert set(Claim.objects.get(pk=claim.pk).about.all()) == {left, right}


def test_what_names_a_merged_work_is_listed(api: APIClient, claim: Claim) -> None:
    duplicate = claim.citations.get().source
    kept = make_source(short_name="SkillForge (kept)")
    other = make_source(short_name="StarHarness")
    question = make_question()
    question.sources.set([duplicate])
    contrast = make_contrast(duplicate, other)
    classification = make_classification(duplicate)
    Claim.objects.filter(pk=claim.pk).update(updated_at=timezone.now())

    _seen_only_by_a_walk_from_before(
        api, lambda: source_merge(merged=duplicate, kept=kept, user=make_editor()),
        (CLAIMS, claim.pk, "id"), (QUESTIONS, question.pk, "id"), (CONTRASTS, contrast.pk, "id"),
        (CLASSIFICATIONS, classification.pk, "id"), (SOURCES, kept.slug, "slug"),
    )
    assert Citation.objects.get(claim=claim).source == kept


def test_what_is_on_a_moved_page_is_listed(api: APIClient, claim: Claim) -> None:
    question = make_question(page=claim.page)
    term = GlossaryTerm.objects.create(slug="skill-forge", name_en="Skill forging", name_zh="技能锻造", page=claim.page)

    _seen_only_by_a_walk_from_before(
        api, lambda: page_move(page=claim.page, slug="skillforge-notes", title="SkillForge notes", user=make_editor()),
        (CLAIMS, claim.pk, "id"), (QUESTIONS, question.pk, "id"), (GLOSSARY, term.slug, "slug"),
    )


def test_what_names_a_renamed_work_is_listed(api: APIClient, claim: Claim) -> None:
    work = claim.citations.get().source
    other = make_source(short_name="StarHarness")
    question = make_question()
    question.sources.set([work])
    contrast = make_contrast(other, work)
    classification = make_classification(work)
    untouched = make_claim("StarHarness evolves its harness", cites=[other])

    _seen_only_by_a_walk_from_before(
        api, lambda: source_update(source=work, fields={"short_name": "SkillForge-RL"}, user=make_editor()),
        (CLAIMS, claim.pk, "id"), (QUESTIONS, question.pk, "id"), (CONTRASTS, contrast.pk, "id"),
        (CLASSIFICATIONS, classification.pk, "id"),
    )
    before = timezone.now()
    source_update(source=other, fields={"abstract": "A harness that evolves."}, user=make_editor())
    assert untouched.pk not in _listed(api, CLAIMS, before)


def test_a_question_whose_links_change_is_listed(api: APIClient, claim: Claim) -> None:
    question = make_question()
    work = claim.citations.get().source

    _seen_only_by_a_walk_from_before(api, lambda: question_update(
        question=question, fields={}, claims=[claim], sources=[work], user=make_editor()), (QUESTIONS, question.pk, "id"))
    _seen_only_by_a_walk_from_before(api, lambda: OpenQuestion.claims.through.objects.filter(openquestion=question).delete(),
                                     (QUESTIONS, question.pk, "id"))
    _seen_only_by_a_walk_from_before(api, lambda: OpenQuestion.sources.through.objects.filter(openquestion=question).update(
        source_id=make_source(short_name="StarHarness").pk), (QUESTIONS, question.pk, "id"))


def test_a_work_given_a_component_is_listed_with_its_classifications(api: APIClient) -> None:
    work = make_source(short_name="Shepherd")
    classification = make_classification(work)

    _seen_only_by_a_walk_from_before(api, lambda: component_create(source=work, name="runtime supervisor"),
                                     (SOURCES, work.slug, "slug"), (CLASSIFICATIONS, classification.pk, "id"))
    component = Component.objects.get(source=work)
    _seen_only_by_a_walk_from_before(api, lambda: Component.objects.filter(pk=component.pk).update(name="CRO"),
                                     (SOURCES, work.slug, "slug"), (CLASSIFICATIONS, classification.pk, "id"))
    assert Source.objects.get(pk=work.pk).components.get().name == "CRO"


def test_what_named_a_claim_deleted_outright_is_listed(api: APIClient, claim: Claim) -> None:
    work = claim.citations.get().source
    contrast = make_contrast(work, make_source(short_name="StarHarness"), claim=claim)
    question = make_question(answer_claim=claim)
    classification = make_classification(work, evidence_claim=claim)

    _seen_only_by_a_walk_from_before(
        api, lambda: Claim.objects.get(pk=claim.pk).delete(),
        (CONTRASTS, contrast.pk, "id"), (QUESTIONS, question.pk, "id"), (CLASSIFICATIONS, classification.pk, "id"),
    )
    assert OpenQuestion.objects.get(pk=question.pk).answer_claim is None


def test_a_save_that_sets_its_own_time_keeps_it(claim: Claim) -> None:
    question = make_question()
    question.answer_claim = claim
    question.save()

    assert OpenQuestion.objects.get(pk=question.pk).updated_at == question.updated_at
