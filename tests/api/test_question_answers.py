"""Which claim may answer a question: one of its page's, or one it is linked to, current; through the API, the
wiki's form, the admin and the service alike."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.api.etags import if_match
from tests.factories import make_claim, make_indexed_question
from wiki.models import Claim, OpenQuestion
from wiki.services.claims import claim_retire
from wiki.services.pages import page_save_revision
from wiki.services.questions import question_create, question_update

pytestmark = pytest.mark.django_db

REFUSED_ZH = "回答必须是该问题所在页面的现有论断，或它所关联的论断之一。"


@pytest.fixture
def asked() -> tuple[OpenQuestion, Claim, Claim, Claim]:
    """A question on a page with a claim, a claim on another page it is linked to, and a claim it has nothing to do with."""
    own = make_claim("奖励塑形改变信用分配。")
    linked = make_claim("稀疏奖励拖慢学习。")
    unrelated = make_claim("榴莲的气味很重。")
    question = make_indexed_question(title="塑形是否有效", page=own.page, claims=[linked])
    return question, own, linked, unrelated


def _patch(api: APIClient, question: OpenQuestion, answer: Claim, language: str = "zh-hans") -> object:
    url = f"/api/v1/questions/{question.pk}/"
    return api.patch(url, {"status": "answered", "answer_claim": answer.pk}, format="json",
                     HTTP_ACCEPT_LANGUAGE=language, **if_match(api, url))


def test_the_api_refuses_an_answer_from_an_unrelated_page_naming_the_field_in_the_clients_language(
    editor_api: APIClient, asked: tuple[OpenQuestion, Claim, Claim, Claim],
) -> None:
    question, _own, _linked, unrelated = asked

    refused = _patch(editor_api, question, unrelated)
    in_english = _patch(editor_api, question, unrelated, "en")

    assert refused.status_code == 400  # type: ignore[attr-defined]
    assert refused.json()["errors"] == {"answer_claim": [REFUSED_ZH]}  # type: ignore[attr-defined]
    assert refused.json()["codes"] == {"answer_claim": ["answer_unrelated"]}  # type: ignore[attr-defined]
    assert in_english.json()["errors"]["answer_claim"] == [  # type: ignore[attr-defined]
        "The answer must be a current claim of the question's page or one of the claims it is linked to."]
    question.refresh_from_db()
    assert (question.status, question.answer_claim_id) == ("open", None)


@pytest.mark.parametrize("which", ["own", "linked"])
def test_the_api_takes_a_claim_of_the_questions_page_or_one_it_is_linked_to(
    editor_api: APIClient, asked: tuple[OpenQuestion, Claim, Claim, Claim], which: str,
) -> None:
    question, own, linked, _unrelated = asked
    answer = own if which == "own" else linked

    assert _patch(editor_api, question, answer).status_code == 200  # type: ignore[attr-defined]
    question.refresh_from_db()
    assert question.answer_claim_id == answer.pk


def test_the_api_takes_a_claim_linked_in_the_same_request(editor_api: APIClient,
                                                          asked: tuple[OpenQuestion, Claim, Claim, Claim]) -> None:
    question, _own, linked, unrelated = asked
    url = f"/api/v1/questions/{question.pk}/"

    saved = editor_api.patch(url, {"status": "answered", "answer_claim": unrelated.pk, "claims": [linked.pk, unrelated.pk]},
                             format="json", **if_match(editor_api, url))

    assert saved.status_code == 200
    created = editor_api.post("/api/v1/questions/", {"title": "新问题", "status": "answered", "answer_claim": unrelated.pk},
                              format="json", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert created.status_code == 400 and created.json()["errors"] == {"answer_claim": [REFUSED_ZH]}
    assert not OpenQuestion.objects.filter(title="新问题").exists()


def test_an_orphaned_or_retired_claim_does_not_answer_but_an_answer_orphaned_since_stays(
    asked: tuple[OpenQuestion, Claim, Claim, Claim],
) -> None:
    question, own, linked, _unrelated = asked
    page = own.page
    page_save_revision(slug=page.slug, title=page.title, summary=page.summary, body="## 关键要点\n\n- 另一句话。\n")
    own.refresh_from_db()
    assert own.is_orphaned
    claim_retire(claim=Claim.objects.get(pk=own.pk), reason="gone")

    with pytest.raises(ValidationError) as refused:
        question_update(question=question, fields={"status": "answered", "answer_claim": Claim.objects.get(pk=own.pk)},
                        claims=[linked])
    assert refused.value.message_dict.keys() == {"answer_claim"}

    answered = question_update(question=question, fields={"status": "answered", "answer_claim": linked}, claims=[linked])
    linked_page = linked.page
    page_save_revision(slug=linked_page.slug, title=linked_page.title, summary="", body="## 关键要点\n\n- 别的。\n")
    renamed = question_update(question=answered, fields={"title": "塑形是否总是有效"}, claims=[linked])
    assert renamed.answer_claim_id == linked.pk


def test_the_service_refuses_a_new_question_answered_by_an_unrelated_claim(
    asked: tuple[OpenQuestion, Claim, Claim, Claim],
) -> None:
    _question, own, _linked, unrelated = asked

    with pytest.raises(ValidationError):
        question_create(fields={"title": "另一问题", "page": own.page, "status": "answered", "answer_claim": unrelated})
    assert question_create(fields={"title": "另一问题", "page": own.page, "status": "answered", "answer_claim": own}).pk


def _form(question: OpenQuestion, answer: Claim) -> dict[str, object]:
    return {"title": question.title, "text": "", "page": question.page.slug if question.page else "", "status": "answered",
            "priority": "normal", "assignee": "", "resolution_criteria": "", "answer_claim": answer.pk,
            "claims": [claim.pk for claim in question.claims.all()], "sources": ""}


def test_the_form_and_the_admin_refuse_an_unrelated_answer_by_the_field(
    asked: tuple[OpenQuestion, Claim, Claim, Claim], editor_client: Client, admin_client: Client,
) -> None:
    question, _own, _linked, unrelated = asked

    form = editor_client.post(reverse("wiki:question-edit", args=[question.pk]), _form(question, unrelated),
                              HTTP_ACCEPT_LANGUAGE="zh-hans")
    admin = admin_client.post(reverse("admin:wiki_openquestion_change", args=[question.pk]), _form(question, unrelated),
                              HTTP_ACCEPT_LANGUAGE="zh-hans")

    assert form.status_code == 200 and admin.status_code == 200
    assert form.context["form"].errors == {"answer_claim": [REFUSED_ZH]}
    assert admin.context["adminform"].form.errors == {"answer_claim": [REFUSED_ZH]}
    question.refresh_from_db()
    assert (question.status, question.answer_claim_id) == ("open", None)
