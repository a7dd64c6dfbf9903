"""Edits through the API: If-Match is required (428 without), checked again under the service's row lock (412 for
the loser of two writers that read the same version), a field the endpoint does not write is a 400 naming it, and
an edit that changes nothing writes nothing."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.etags import if_match
from tests.factories import (
    make_claim,
    make_classification,
    make_contrast,
    make_editor,
    make_page,
    make_question,
    make_source,
)
from wiki.api.views.writes import ServiceViewSet
from wiki.models import ChangeEvent, Claim, Classification, Contrast, OpenQuestion, Page, Source
from wiki.roles import Account
from wiki.services.claims import claim_set_status
from wiki.services.classifications import classification_save
from wiki.services.questions import question_update


def _objects() -> dict[str, tuple[str, dict[str, Any]]]:
    source = make_source(title="Some Editable Work")
    classification = make_classification(make_source(title="Another Classified Work"))
    question = make_question()
    claim = make_claim("GRPO 更新策略。")
    return {
        "source": (f"/api/v1/sources/{source.slug}/", {"notes": "mine"}),
        "classification": (f"/api/v1/classifications/{classification.pk}/", {"algorithm": "mine"}),
        "question": (f"/api/v1/questions/{question.pk}/", {"priority": "high"}),
        "claim": (f"/api/v1/claims/{claim.pk}/", {"status": "disputed"}),
    }


@pytest.mark.parametrize("kind", ["source", "classification", "question", "claim"])
def test_an_edit_without_if_match_is_428_and_writes_nothing(editor_api: APIClient, kind: str) -> None:
    url, change = _objects()[kind]
    before = editor_api.get(url).json()

    refused = editor_api.patch(url, change, format="json")
    chinese = editor_api.patch(url, change, format="json", HTTP_ACCEPT_LANGUAGE="zh-Hans")

    assert refused.status_code == 428 and refused.json()["code"] == "precondition_required"
    assert "If-Match" in refused.json()["detail"] and chinese.json()["detail"] != refused.json()["detail"]
    assert editor_api.get(url).json() == before


@pytest.mark.parametrize("kind", ["source", "classification", "question", "claim"])
def test_if_match_star_overwrites_whatever_is_saved(editor_api: APIClient, kind: str) -> None:
    url, change = _objects()[kind]

    saved = editor_api.patch(url, change, format="json", HTTP_IF_MATCH="*")

    assert saved.status_code == 200 and saved.json()["unchanged"] is False
    assert all(saved.json()[name] == value for name, value in change.items())


@pytest.mark.parametrize("kind", ["source", "classification", "question", "claim", "page"])
@pytest.mark.parametrize("none_match", ["*", "held"])
def test_an_edit_sent_with_if_none_match_naming_the_saved_version_is_412_and_writes_nothing(
        editor_api: APIClient, kind: str, none_match: str) -> None:
    objects = {**_objects(), "page": ("/api/v1/pages/none-match/", {"summary": "mine"})}
    make_page(slug="none-match")
    url, change = objects[kind]
    read = editor_api.get(url)
    held = read["ETag"] if none_match == "held" else "*"

    refused = editor_api.patch(url, change, format="json", HTTP_IF_MATCH=read["ETag"], HTTP_IF_NONE_MATCH=held)
    weakly = editor_api.patch(url, change, format="json", HTTP_IF_MATCH="*", HTTP_IF_NONE_MATCH=f"W/{read['ETag']}")

    assert refused.status_code == 412 and refused.json()["code"] == "precondition_failed", refused.content
    assert weakly.status_code == 412  # If-None-Match compares weakly
    assert editor_api.get(url).json() == read.json()
    other = editor_api.patch(url, change, format="json", HTTP_IF_MATCH=read["ETag"], HTTP_IF_NONE_MATCH='"another"')
    assert other.status_code == 200, other.content


def test_deleting_a_contrast_with_if_none_match_star_is_412_and_deletes_nothing(editor_api: APIClient) -> None:
    contrast = make_contrast(make_source(short_name="Left"), make_source(short_name="Right"))
    url = f"/api/v1/contrasts/{contrast.pk}/"
    etag = editor_api.get(url)["ETag"]

    refused = editor_api.delete(url, HTTP_IF_MATCH=etag, HTTP_IF_NONE_MATCH="*")

    assert refused.status_code == 412 and refused.json()["code"] == "precondition_failed"
    assert Contrast.objects.filter(pk=contrast.pk).exists()
    assert editor_api.delete(url, HTTP_IF_MATCH=etag).status_code == 204


def test_a_page_edit_still_names_its_revision_in_the_body_or_as_if_match(editor_api: APIClient) -> None:
    page = make_page(slug="precondition-page")
    url = f"/api/v1/pages/{page.slug}/"

    with_revision = editor_api.patch(url, {"body": "Second.", "base_revision": 1}, format="json")
    without = editor_api.patch(url, {"body": "Third."}, format="json")

    assert with_revision.status_code == 200
    assert without.status_code == 400 and set(without.json()["errors"]) == {"base_revision"}


# What another editor saves between the If-Match check and the service's row lock.
RIVALS: dict[str, Callable[[Any, Account], object]] = {
    "classification": lambda c, user: classification_save(source=c.source, component=None, classification=c,
                                                          fields={"algorithm": "theirs"}, user=user),
    "question": lambda q, user: question_update(question=q, fields={"priority": "low"}, user=user),
    "claim": lambda c, user: claim_set_status(claim=c, status="verified", user=user),
}
MODELS: dict[str, type[Any]] = {"classification": Classification, "question": OpenQuestion, "claim": Claim}


@pytest.mark.parametrize("kind", ["classification", "question", "claim"])
def test_of_two_writers_that_read_the_same_version_the_second_gets_412(
        editor_api: APIClient, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    url, change = _objects()[kind]
    pk = int(url.rstrip("/").rsplit("/", 1)[1])
    rival = make_editor()
    original = ServiceViewSet.get_write_serializer

    def saved_meanwhile(self: ServiceViewSet, *args: Any, **kwargs: Any) -> Any:
        # The other writer's save commits after this request's If-Match check, before its service locks the row.
        RIVALS[kind](MODELS[kind].objects.get(pk=pk), rival)
        return original(self, *args, **kwargs)

    headers = if_match(editor_api, url)
    monkeypatch.setattr(ServiceViewSet, "get_write_serializer", saved_meanwhile)
    response = editor_api.patch(url, change, format="json", **headers)

    assert response.status_code == 412 and response.json()["code"] == "precondition_failed"
    saved = MODELS[kind].objects.get(pk=pk)
    field, theirs = {"classification": ("algorithm", "theirs"), "question": ("priority", "low"),
                     "claim": ("status", "verified")}[kind]
    assert getattr(saved, field) == theirs


@pytest.mark.parametrize(("kind", "body", "field", "code"), [
    ("source", {"notez": "typo"}, "notez", "unknown_field"),
    ("source", {"slug": "renamed"}, "slug", "read_only"),
    ("classification", {"algoritm": "typo"}, "algoritm", "unknown_field"),
    ("classification", {"rubric_verdict": "strict"}, "rubric_verdict", "read_only"),
    ("question", {"stauts": "answered"}, "stauts", "unknown_field"),
    ("claim", {"text": "rewrite"}, "text", "read_only"),
])
def test_a_field_the_endpoint_does_not_write_is_400_naming_it(
        editor_api: APIClient, kind: str, body: dict[str, str], field: str, code: str) -> None:
    url, _change = _objects()[kind]
    before = editor_api.get(url).json()
    events = ChangeEvent.objects.count()

    response = editor_api.patch(url, body, format="json", **if_match(editor_api, url))

    assert response.status_code == 400
    assert response.json()["code"] == code and set(response.json()["errors"]) == {field}
    assert editor_api.get(url).json() == before and ChangeEvent.objects.count() == events


def test_unknown_fields_are_refused_on_creates_and_actions_too(editor_api: APIClient) -> None:
    created = editor_api.post("/api/v1/questions/", {"title": "Typo question", "priorty": "high"}, format="json")
    page = editor_api.post("/api/v1/pages/", {"title": "Typo Page", "body": "x", "sumary": "typo"}, format="json")
    claim = make_claim("PPO 更新策略。")
    retired = editor_api.post(f"/api/v1/claims/{claim.pk}/retire/", {"reason": "x", "why": "y"}, format="json")

    assert [r.status_code for r in (created, page, retired)] == [400, 400, 400]
    assert [set(r.json()["errors"]) for r in (created, page, retired)] == [{"priorty"}, {"sumary"}, {"why"}]
    assert not OpenQuestion.objects.filter(title="Typo question").exists()


def test_a_page_edit_may_send_its_own_slug_back(editor_api: APIClient) -> None:
    page = make_page(slug="own-slug")
    url = f"/api/v1/pages/{page.slug}/"

    same = editor_api.patch(url, {"slug": "own-slug", "body": "New.", "base_revision": 1}, format="json")
    other = editor_api.patch(url, {"slug": "other-slug", "body": "Newer.", "base_revision": 2}, format="json")

    assert same.status_code == 200 and other.status_code == 400 and set(other.json()["errors"]) == {"slug"}


@pytest.mark.parametrize("kind", ["classification", "question", "claim"])
def test_an_edit_that_changes_nothing_writes_nothing(editor_api: APIClient, kind: str) -> None:
    url, change = _objects()[kind]
    first = editor_api.patch(url, change, format="json", **if_match(editor_api, url))
    saved = editor_api.get(url)
    events = ChangeEvent.objects.count()
    other_editor = APIClient()
    other_editor.force_authenticate(make_editor())

    again = other_editor.patch(url, change, format="json", **if_match(other_editor, url))

    assert first.json()["unchanged"] is False
    assert again.status_code == 200 and again.json()["unchanged"] is True
    assert editor_api.get(url).json() == saved.json() and again["ETag"] == saved["ETag"]
    assert ChangeEvent.objects.count() == events


def test_a_classification_saved_unchanged_stays_credited_to_who_set_it(editor: Account) -> None:
    classification = make_classification(make_source(title="Credited Work"), algorithm="PPO")
    classification = classification_save(source=classification.source, classification=classification,
                                         fields={"algorithm": "GRPO"}, user=editor)
    other = make_editor()

    again = classification_save(source=classification.source, classification=classification,
                                fields={"algorithm": "GRPO", "narrow": classification.narrow}, user=other)

    assert again.set_by_user == editor and again.updated_at == classification.updated_at
    assert Classification.objects.get(pk=classification.pk).set_by_user == editor


def test_a_source_slug_sent_on_create_is_refused(editor_api: APIClient) -> None:
    response = editor_api.post("/api/v1/sources/", {"title": "Slugged Work", "slug": "mine"}, format="json")

    assert response.status_code == 400 and set(response.json()["errors"]) == {"slug"}
    assert not Source.objects.filter(title="Slugged Work").exists()


SAVED_AT = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)
BEFORE = "Wed, 01 Jan 2025 11:59:59 GMT"
AT = "Wed, 01 Jan 2025 12:00:00 GMT"


def _dated(kind: str) -> tuple[str, dict[str, Any]]:
    """A page or a work last changed at ``SAVED_AT``, its address and an edit of it (a page's naming its revision)."""
    if kind == "page":
        page = make_page(slug="dated-page")
        Page.objects.filter(pk=page.pk).update(updated_at=SAVED_AT)
        return f"/api/v1/pages/{page.slug}/", {"summary": "mine", "base_revision": 1}
    source = make_source(title="A Dated Work")
    Source.objects.filter(pk=source.pk).update(updated_at=SAVED_AT)
    return f"/api/v1/sources/{source.slug}/", {"notes": "mine"}


@pytest.mark.parametrize("kind", ["page", "source"])
def test_an_edit_whose_if_unmodified_since_is_before_the_last_change_is_412_and_writes_nothing(
        editor_api: APIClient, kind: str) -> None:
    url, change = _dated(kind)
    before = editor_api.get(url)

    refused = editor_api.patch(url, change, format="json", HTTP_IF_UNMODIFIED_SINCE=BEFORE)
    chinese = editor_api.patch(url, change, format="json", HTTP_IF_UNMODIFIED_SINCE=BEFORE, HTTP_ACCEPT_LANGUAGE="zh-Hans")

    assert before["Last-Modified"] == AT
    assert refused.status_code == 412 and refused.json()["code"] == "precondition_failed"
    assert "(If-Unmodified-Since)" in refused.json()["detail"] and "If-Unmodified-Since" in chinese.json()["detail"]
    assert chinese.json()["detail"] != refused.json()["detail"]
    assert editor_api.get(url).json() == before.json()


def test_a_page_edit_whose_if_unmodified_since_is_its_last_change_is_saved(editor_api: APIClient) -> None:
    url, change = _dated("page")

    saved = editor_api.patch(url, change, format="json", HTTP_IF_UNMODIFIED_SINCE=AT)

    assert saved.status_code == 200 and saved.json()["summary"] == "mine"


def test_a_work_edit_with_a_current_if_unmodified_since_still_needs_if_match(editor_api: APIClient) -> None:
    url, change = _dated("source")

    asked = editor_api.patch(url, change, format="json", HTTP_IF_UNMODIFIED_SINCE=AT)

    assert asked.status_code == 428 and asked.json()["code"] == "precondition_required"


@pytest.mark.parametrize("kind", ["page", "source"])
def test_if_unmodified_since_gives_way_to_if_match(editor_api: APIClient, kind: str) -> None:
    url, change = _dated(kind)

    saved = editor_api.patch(url, change, format="json", HTTP_IF_UNMODIFIED_SINCE=BEFORE, **if_match(editor_api, url))

    assert saved.status_code == 200 and saved.json()["unchanged"] is False


@pytest.mark.parametrize("date", ["yesterday", "Wed, 01 Jan 2025 11:59:59", "2025-01-01T11:59:59Z"])
def test_an_if_unmodified_since_that_is_no_http_date_is_ignored(editor_api: APIClient, date: str) -> None:
    url, change = _dated("page")

    saved = editor_api.patch(url, change, format="json", HTTP_IF_UNMODIFIED_SINCE=date)

    assert saved.status_code == 200 and saved.json()["summary"] == "mine"


def test_a_retried_work_edit_whose_date_is_now_past_is_answered_as_done(editor_api: APIClient) -> None:
    url, change = _dated("source")
    editor_api.patch(url, change, format="json", **if_match(editor_api, url))

    retried = editor_api.patch(url, change, format="json", HTTP_IF_UNMODIFIED_SINCE=AT)

    assert retried.status_code == 200 and retried.json()["unchanged"] is True and retried.json()["notes"] == "mine"
    assert editor_api.patch(url, {"notes": "other"}, format="json", HTTP_IF_UNMODIFIED_SINCE=AT).status_code == 412


@pytest.mark.parametrize("kind", ["classification", "question", "claim"])
def test_an_edit_of_what_has_no_date_ignores_if_unmodified_since(editor_api: APIClient, kind: str) -> None:
    url, change = _objects()[kind]

    asked = editor_api.patch(url, change, format="json", HTTP_IF_UNMODIFIED_SINCE="Mon, 01 Jan 2001 00:00:00 GMT")
    saved = editor_api.patch(url, change, format="json", HTTP_IF_UNMODIFIED_SINCE="Mon, 01 Jan 2001 00:00:00 GMT",
                             **if_match(editor_api, url))

    assert not editor_api.get(url).has_header("Last-Modified")
    assert asked.status_code == 428 and saved.status_code == 200


@pytest.mark.parametrize("kind", ["source", "classification", "question", "claim", "page"])
@pytest.mark.parametrize(("header", "value"), [
    ("HTTP_IF_MATCH", "abc"),  # no quotes
    ("HTTP_IF_MATCH", '"abc'),  # a quote not closed
    ("HTTP_IF_MATCH", "{etag}, abc"),  # the right ETag beside something that is none
    ("HTTP_IF_NONE_MATCH", "abc"),
])
def test_a_precondition_that_is_no_etag_is_a_400_saying_so_and_writes_nothing(
        editor_api: APIClient, kind: str, header: str, value: str) -> None:
    objects = {**_objects(), "page": ("/api/v1/pages/malformed/", {"summary": "mine"})}
    make_page(slug="malformed")
    url, change = objects[kind]
    read = editor_api.get(url)
    sent: dict[str, Any] = {header: value.format(etag=read["ETag"])}
    if header == "HTTP_IF_NONE_MATCH":
        sent["HTTP_IF_MATCH"] = read["ETag"]

    refused = editor_api.patch(url, change, format="json", **sent)
    chinese = editor_api.patch(url, change, format="json", HTTP_ACCEPT_LANGUAGE="zh-Hans", **sent)

    name = "If-None-Match" if header == "HTTP_IF_NONE_MATCH" else "If-Match"
    assert (refused.status_code, refused.json()["code"]) == (400, "malformed_precondition")
    assert refused.json()["detail"].startswith(f"{name} is not * nor a list of ETags in double quotes")
    assert chinese.status_code == 400 and chinese.json()["detail"].startswith(f"{name} 不是 *")
    assert editor_api.get(url).json() == read.json()


def test_a_watch_with_a_precondition_that_is_no_etag_is_a_400(editor_api: APIClient) -> None:
    make_page(slug="watched")
    refused = editor_api.put("/api/v1/watchlist/pages/watched/", HTTP_IF_NONE_MATCH="not-an-etag")
    assert (refused.status_code, refused.json()["code"]) == (400, "malformed_precondition")
    assert editor_api.get("/api/v1/watchlist/").json()["count"] == 0
