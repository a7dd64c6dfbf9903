"""HTTP validators on the API: ETag and Last-Modified on reads, 304 for an unchanged object, 412 for a stale If-Match."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.api.etags import if_match
from tests.factories import make_classification, make_page, make_source
from wiki.models import Page

pytestmark = pytest.mark.django_db


def test_an_unchanged_page_answers_304(api: APIClient) -> None:
    page = make_page(title="Cached", body="Some text.")
    url = f"/api/v1/pages/{page.slug}/"

    first = api.get(url)
    again = api.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    since = api.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])

    assert first.status_code == 200 and first["ETag"].startswith('"r1-') and first["Last-Modified"]
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == first["ETag"]
    assert since.status_code == 304


def test_a_changed_page_answers_anew(api: APIClient, editor_api: APIClient) -> None:
    page = make_page(title="Cached", body="Some text.")
    url = f"/api/v1/pages/{page.slug}/"
    etag = api.get(url)["ETag"]

    editor_api.patch(url, {"body": "Other text.", "base_revision": 1}, format="json")
    after = api.get(url, HTTP_IF_NONE_MATCH=etag)

    assert after.status_code == 200 and after["ETag"].startswith('"r2-') and after.json()["body"] == "Other text."


def test_a_new_backlink_changes_the_etag(api: APIClient) -> None:
    page = make_page(title="Target", body="Text.")
    etag = api.get(f"/api/v1/pages/{page.slug}/")["ETag"]

    make_page(title="Linker", body=f"See [[{page.slug}]].")

    assert api.get(f"/api/v1/pages/{page.slug}/", HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_a_stale_if_match_is_412_and_changes_nothing(api: APIClient, editor_api: APIClient) -> None:
    page = make_page(title="Guarded", body="First.")
    url = f"/api/v1/pages/{page.slug}/"
    stale = api.get(url)["ETag"]
    editor_api.patch(url, {"body": "Second.", "base_revision": 1}, format="json")

    refused = editor_api.patch(url, {"body": "Third."}, format="json", HTTP_IF_MATCH=stale)

    assert refused.status_code == 412 and refused.json()["code"] == "precondition_failed"
    assert Page.objects.get(pk=page.pk).body == "Second."


def test_a_current_if_match_stands_for_base_revision(api: APIClient, editor_api: APIClient) -> None:
    page = make_page(title="Guarded", body="First.")
    url = f"/api/v1/pages/{page.slug}/"

    saved = editor_api.patch(url, {"body": "Second."}, format="json", HTTP_IF_MATCH=api.get(url)["ETag"])

    assert saved.status_code == 200 and saved.json()["revision"] == 2
    assert saved["ETag"] == api.get(url)["ETag"]


def test_a_source_changes_its_etag_when_its_classification_does(api: APIClient, editor_api: APIClient) -> None:
    source = make_source()
    classification = make_classification(source)
    url = f"/api/v1/sources/{source.slug}/"
    first = api.get(url)

    classification_url = f"/api/v1/classifications/{classification.pk}/"
    editor_api.patch(classification_url, {"algorithm": "GRPO"}, format="json", **if_match(editor_api, classification_url))

    assert api.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200
    stale = editor_api.patch(url, {"venue": "NeurIPS"}, format="json", HTTP_IF_MATCH=first["ETag"])
    assert stale.status_code == 412


@pytest.mark.parametrize("url", ["/api/v1/pages/", "/api/v1/sources/?kind=paper", "/api/v1/claims/", "/api/v1/search/?q=GRPO"])
def test_lists_answer_304_while_unchanged(api: APIClient, url: str) -> None:
    first = api.get(url)

    assert first.status_code == 200 and first["ETag"]
    assert api.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_a_list_changes_its_etag_when_a_page_is_saved(api: APIClient) -> None:
    first = api.get("/api/v1/pages/")

    make_page(title="Fresh")

    assert api.get("/api/v1/pages/", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def test_if_match_guards_every_update(api: APIClient, editor_api: APIClient) -> None:
    classification = make_classification(make_source())
    url = f"/api/v1/classifications/{classification.pk}/"
    etag = api.get(url)["ETag"]

    saved = editor_api.patch(url, {"algorithm": "PPO"}, format="json", HTTP_IF_MATCH=etag)
    stale = editor_api.patch(url, {"algorithm": "GRPO"}, format="json", HTTP_IF_MATCH=etag)

    assert saved.status_code == 200 and stale.status_code == 412
    assert api.get(url).json()["algorithm"] == "PPO"
