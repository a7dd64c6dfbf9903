"""HTTP validators on the API: ETag and Last-Modified on reads, 304 for an unchanged object, 412 for a stale If-Match."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.utils.http import http_date
from rest_framework.test import APIClient

from tests.api.etags import if_match
from tests.factories import make_claim, make_classification, make_page, make_question, make_source
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


@pytest.mark.parametrize("header", [{"HTTP_IF_MATCH": '"not-this-version"'},
                                    {"HTTP_IF_UNMODIFIED_SINCE": "Mon, 01 Jan 2001 00:00:00 GMT"}])
def test_a_read_naming_another_version_is_412_in_the_error_shape_not_304(api: APIClient, header: dict[str, Any]) -> None:
    page = make_page(title="Guarded", body="Text.")
    source = make_source()
    # a date names a version only of what has one (Last-Modified): a list has none
    undated = ("/api/v1/pages/", "/api/v1/questions/") if "HTTP_IF_MATCH" in header else ()

    for url in (f"/api/v1/pages/{page.slug}/", f"/api/v1/sources/{source.slug}/", *undated):
        response = api.get(url, **header)

        assert response.status_code == 412, url
        assert response["Content-Type"].startswith("application/json"), url
        assert response.json()["code"] == "precondition_failed", url
        named = "If-Match" if "HTTP_IF_MATCH" in header else "If-Unmodified-Since"
        assert f"({named})" in response.json()["detail"], url


@pytest.mark.parametrize("date", ["Mon, 01 Jan 2001 00:00:00 GMT", "Fri, 01 Jan 2100 00:00:00 GMT"])
def test_a_read_of_what_has_no_date_ignores_if_unmodified_since(api: APIClient, date: str) -> None:
    claim = make_claim("GRPO 更新策略。")
    question = make_question()

    for url in ("/api/v1/pages/", "/api/v1/questions/", f"/api/v1/claims/{claim.pk}/",
                f"/api/v1/questions/{question.pk}/", "/api/v1/graph/map/"):
        response = api.get(url, HTTP_IF_UNMODIFIED_SINCE=date)

        assert response.status_code == 200, (url, response.content[:200])
        assert not response.has_header("Last-Modified"), url


def test_a_dated_read_is_answered_while_it_is_unmodified_since(api: APIClient) -> None:
    page = make_page(title="Guarded", body="Text.")
    url = f"/api/v1/pages/{page.slug}/"

    assert api.get(url, HTTP_IF_UNMODIFIED_SINCE="Fri, 01 Jan 2100 00:00:00 GMT").status_code == 200
    assert api.get(url, HTTP_IF_UNMODIFIED_SINCE=api.get(url)["Last-Modified"]).status_code == 200


def test_a_read_naming_its_own_version_is_answered(api: APIClient) -> None:
    page = make_page(title="Guarded", body="Text.")
    url = f"/api/v1/pages/{page.slug}/"

    assert api.get(url, HTTP_IF_MATCH=api.get(url)["ETag"]).status_code == 200
    assert api.get(url, HTTP_IF_MATCH="*").status_code == 200


def test_a_list_a_work_has_left_is_not_answered_304_by_date(api: APIClient, editor_api: APIClient) -> None:
    leaving = make_source(slug="leaving", year=2019)
    make_source(slug="staying", year=2019)
    url = "/api/v1/sources/?year=2019"
    first = api.get(url)
    read_at = http_date(time.time() + 1)
    source_url = f"/api/v1/sources/{leaving.slug}/"

    editor_api.patch(source_url, {"year": 2018}, format="json", **if_match(editor_api, source_url))
    by_date = api.get(url, HTTP_IF_MODIFIED_SINCE=read_at)
    by_tag = api.get(url, HTTP_IF_NONE_MATCH=first["ETag"])

    assert not first.has_header("Last-Modified")
    for again in (by_date, by_tag):
        assert again.status_code == 200 and [row["slug"] for row in again.json()["results"]] == ["staying"]


def test_a_read_varies_with_accept_once(api: APIClient) -> None:
    page = make_page(title="Varied", body="Text.")

    for url in (f"/api/v1/pages/{page.slug}/", "/api/v1/questions/"):
        vary = [value.strip().lower() for value in api.get(url)["Vary"].split(",")]

        assert vary.count("accept") == 1, vary


def test_a_page_save_landing_after_the_if_match_check_makes_the_edit_a_412(
    api: APIClient, editor_api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from wiki.api.views import pages as page_views
    from wiki.services.pages import page_save

    page = make_page(title="Raced", body="First.")
    url = f"/api/v1/pages/{page.slug}/"
    etag = api.get(url)["ETag"]

    def another_save_lands_first(**kwargs: object) -> object:
        page_save(slug=page.slug, title="Raced", body="Someone else's.", base_revision=1)
        return page_save(**kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(page_views, "page_save", another_save_lands_first)
    raced = editor_api.patch(url, {"body": "Mine."}, format="json", HTTP_IF_MATCH=etag)

    assert raced.status_code == 412 and raced.json()["code"] == "precondition_failed"
    assert Page.objects.get(pk=page.pk).body == "Someone else's."


def test_if_match_star_saves_over_whatever_is_saved(editor_api: APIClient) -> None:
    page = make_page(title="Overwritten", body="First.")
    url = f"/api/v1/pages/{page.slug}/"

    saved = editor_api.patch(url, {"body": "Second."}, format="json", HTTP_IF_MATCH="*")

    assert saved.status_code == 200 and saved.json()["revision"] == 2
    assert Page.objects.get(pk=page.pk).body == "Second."


def test_an_error_carries_no_etag_a_client_could_send_back(settings: Any, api: APIClient) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "2/minute"}}

    refused = api.get("/api/v1/sources/", {"year": "abc"})
    missing = api.get("/api/v1/sources/no-such-work/")
    throttled = [api.get("/api/v1/pages/") for _ in range(2)][-1]

    assert (refused.status_code, missing.status_code, throttled.status_code) == (400, 404, 429)
    assert not any(response.has_header("ETag") or response.has_header("Last-Modified")
                   for response in (refused, missing, throttled))
