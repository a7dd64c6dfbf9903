"""A write repeated or raced: retiring a claim twice, re-attaching two claims to one sentence, asking the same
question twice; and exports asked in two formats at one address."""

from __future__ import annotations

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from rest_framework.test import APIClient

from tests.factories import make_page, make_source
from wiki.models import Claim, OpenQuestion, Page
from wiki.services.claims import claim_reattach, claim_retire, claim_set_status
from wiki.services.pages import page_save_revision

BODY = "## 关键要点\n\n- SkillForge 用 GRPO 更新策略。\n- FACET 用轨迹做 SFT。\n- StarHarness 只演化 harness。\n"


def _orphans(page: Page) -> tuple[Claim, Claim, Claim]:
    """FACET and StarHarness orphaned by an edit that writes a new sentence instead."""
    facet, star = (Claim.objects.get(page=page, text__startswith=start) for start in ("FACET", "StarHarness"))
    page_save_revision(slug=page.slug, title=page.title, base_revision=1,
                       body="## 关键要点\n\n- SkillForge 用 GRPO 更新策略。\n- WebArena 只评测固定模型。\n")
    return facet, star, Claim.objects.get(page=page, is_orphaned=False, text__startswith="WebArena")


def test_retiring_a_retired_claim_is_409_saying_when_by_whom_and_why(editor_api: APIClient) -> None:
    facet, _star, _sentence = _orphans(make_page(body=BODY))
    url = f"/api/v1/claims/{facet.pk}/retire/"

    first = editor_api.post(url, {"reason": "dup removal"}, format="json")
    again = editor_api.post(url, {"reason": "dup removal"}, format="json")

    assert first.status_code == 200
    assert again.status_code == 409 and again.json()["code"] == "already_retired"
    assert f"#{facet.pk}" in again.json()["detail"] and "editor" in again.json()["detail"]
    assert "dup removal" in again.json()["detail"]


def test_the_loser_of_two_reattachments_to_one_sentence_gets_a_400_on_sentence(editor_api: APIClient) -> None:
    facet, star, sentence = _orphans(make_page(body=BODY))
    # The other editor's re-attachment commits first: the sentence's claim row is gone when this one locks.
    claim_reattach(claim=facet, sentence=Claim.objects.get(pk=sentence.pk))

    response = editor_api.post(f"/api/v1/claims/{star.pk}/reattach/", {"sentence": sentence.pk}, format="json")
    with pytest.raises(ValidationError) as late:
        claim_reattach(claim=star, sentence=sentence)

    assert response.status_code == 400 and response.json()["code"] == "does_not_exist"
    assert set(response.json()["errors"]) == {"sentence"}
    assert "sentence" in late.value.message_dict
    assert Claim.objects.get(pk=star.pk).is_orphaned is True


@pytest.mark.django_db(transaction=True)
def test_changing_a_claims_status_does_not_wait_for_its_page(editor: object) -> None:
    """A page save holds its page's row, then rewrites the page's claims: a status change locking the page too
    would wait for it the other way round (a deadlock)."""
    page = make_page(body=BODY)
    facet, _star, _sentence = _orphans(page)
    held, release = threading.Event(), threading.Event()

    def hold_the_page() -> None:
        try:
            with transaction.atomic():
                Page.objects.select_for_update().get(pk=page.pk)
                held.set()
                release.wait(10)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_the_page)
    holder.start()
    try:
        assert held.wait(10)
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '2s'")
            claim_set_status(claim=Claim.objects.get(page=page, text__startswith="SkillForge"), status="verified")
            claim_retire(claim=facet, reason="gone")
    finally:
        release.set()
        holder.join()
    assert Claim.objects.get(pk=facet.pk).retired_at is not None


def test_the_same_question_asked_twice_is_one_question(editor_api: APIClient) -> None:
    page = make_page(slug="asked-page")
    question = {"title": "API dup q", "text": "same?", "page": page.slug}

    first = editor_api.post("/api/v1/questions/", question, format="json")
    again = editor_api.post("/api/v1/questions/", question, format="json")
    elsewhere = editor_api.post("/api/v1/questions/", {**question, "page": None}, format="json")

    assert first.status_code == 201
    assert again.status_code == 409 and again.json()["code"] == "duplicate"
    assert again.json()["existing"] == first.json()["id"] and again.json()["html_url"] == first.json()["html_url"]
    assert again.json()["html_url"] == f"http://testserver/questions/{first.json()['id']}/"
    assert elsewhere.status_code == 201
    assert OpenQuestion.objects.filter(title="API dup q").count() == 2


def test_renaming_a_question_to_ask_what_another_asks_is_refused_as_asking_it_again_is(editor_api: APIClient) -> None:
    page = make_page(slug="renamed-page")
    first = editor_api.post("/api/v1/questions/", {"title": "Asked first", "text": "same?", "page": page.slug}, format="json").json()
    second = editor_api.post("/api/v1/questions/", {"title": "Asked second", "text": "same?", "page": page.slug}, format="json").json()
    url = f"/api/v1/questions/{second['id']}/"

    renamed = editor_api.patch(url, {"title": "Asked first"}, format="json", HTTP_IF_MATCH=editor_api.get(url)["ETag"])
    put = editor_api.put(url, {"title": "Asked first", "text": "same?", "page": page.slug}, format="json", HTTP_IF_MATCH="*")

    for refused in (renamed, put):
        assert refused.status_code == 409 and refused.json()["code"] == "duplicate", refused.content
        assert (refused.json()["existing"], refused.json()["html_url"]) == (first["id"], first["html_url"])
    assert OpenQuestion.objects.get(pk=second["id"]).title == "Asked second"
    # another title, or the same one once the first is resolved, is saved
    assert editor_api.patch(url, {"title": "Asked anew"}, format="json", HTTP_IF_MATCH="*").status_code == 200
    OpenQuestion.objects.filter(pk=first["id"]).update(status="dropped")
    assert editor_api.patch(url, {"title": "Asked first"}, format="json", HTTP_IF_MATCH="*").status_code == 200


def test_reopening_a_question_another_unresolved_one_asks_is_refused(editor_api: APIClient) -> None:
    first = editor_api.post("/api/v1/questions/", {"title": "Reopened"}, format="json").json()
    OpenQuestion.objects.filter(pk=first["id"]).update(status="dropped")
    second = editor_api.post("/api/v1/questions/", {"title": "Reopened"}, format="json").json()

    reopened = editor_api.patch(f"/api/v1/questions/{first['id']}/", {"status": "open"}, format="json", HTTP_IF_MATCH="*")

    assert reopened.status_code == 409 and reopened.json()["existing"] == second["id"]
    assert OpenQuestion.objects.get(pk=first["id"]).status == "dropped"


def test_a_question_resolved_may_be_asked_again(editor_api: APIClient) -> None:
    first = editor_api.post("/api/v1/questions/", {"title": "Asked again"}, format="json").json()
    OpenQuestion.objects.filter(pk=first["id"]).update(status="dropped")

    again = editor_api.post("/api/v1/questions/", {"title": "Asked again"}, format="json")

    assert again.status_code == 201


@pytest.mark.parametrize(("first", "second", "second_type", "second_start"), [
    ("application/x-bibtex", "application/vnd.citationstyles.csl+json", "application/vnd.citationstyles.csl+json", "["),
    ("application/vnd.citationstyles.csl+json", "application/x-bibtex", "application/x-bibtex", "%"),
])
def test_an_export_answers_the_format_asked_whatever_was_asked_before(
        api: APIClient, db: None, first: str, second: str, second_type: str, second_start: str) -> None:
    make_source(title="Exported Work", year=2023)
    url = "/api/v1/sources/export/?year=2023"

    api.get(url, HTTP_ACCEPT=first)
    response = api.get(url, HTTP_ACCEPT=second)

    assert response.status_code == 200 and response["Content-Type"].startswith(second_type)
    assert response.content.decode().lstrip().startswith(second_start)


@pytest.mark.django_db
def test_a_retried_edit_that_went_through_is_answered_as_done_not_412(editor_api: APIClient) -> None:
    """The answer to an edit was lost and the client sends it again with the If-Match it had: what it asks is saved
    already, so it is told so (unchanged); an edit asking for something else from that version is still refused."""
    from tests.factories import make_question

    work = make_source(short_name="Retried", notes="")
    url = f"/api/v1/sources/{work.slug}/"
    etag = editor_api.get(url)["ETag"]

    first = editor_api.patch(url, {"notes": "n1", "year": 2024}, format="json", HTTP_IF_MATCH=etag)
    again = editor_api.patch(url, {"notes": "n1", "year": 2024}, format="json", HTTP_IF_MATCH=etag)
    other = editor_api.patch(url, {"notes": "n2"}, format="json", HTTP_IF_MATCH=etag)
    nothing = editor_api.patch(url, {}, format="json", HTTP_IF_MATCH=etag)

    assert first.status_code == 200 and first.json()["unchanged"] is False
    assert again.status_code == 200 and again.json()["unchanged"] is True
    assert again.json()["notes"] == "n1" and again["ETag"] == first["ETag"]
    assert other.status_code == nothing.status_code == 412

    claims = list(Claim.objects.filter(page=make_page(body=BODY))[:2])
    question = make_question(title="Retried question?")
    url = f"/api/v1/questions/{question.pk}/"
    etag = editor_api.get(url)["ETag"]
    body = {"status": "investigating", "claims": [claims[1].pk, claims[0].pk]}
    assert editor_api.patch(url, body, format="json", HTTP_IF_MATCH=etag).status_code == 200
    assert editor_api.patch(url, body, format="json", HTTP_IF_MATCH=etag).json()["unchanged"] is True
    assert editor_api.patch(url, {**body, "claims": [claims[0].pk]}, format="json", HTTP_IF_MATCH=etag).status_code == 412
