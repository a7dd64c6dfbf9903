"""Inputs that once answered 500 or were accepted against the rules: each is now a 400 in the API's error shape."""

from __future__ import annotations

import json
import time
import xml.dom.minidom
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.api.etags import if_match
from tests.factories import cite, make_classification, make_editor, make_page, make_question, make_source
from wiki.models import ChangeEvent, Claim, Page, Source

pytestmark = pytest.mark.django_db


def _error(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"].startswith("application/json")
    body: dict[str, Any] = response.json()
    assert set(body) >= {"detail", "code", "errors"}
    if code is not None:
        assert body["code"] == code, body
    return body


@pytest.mark.parametrize("title", ["!!!", "。。。"])
def test_a_title_that_gives_no_slug_is_400_not_500(editor_api: APIClient, title: str) -> None:
    response = editor_api.post("/api/v1/pages/", {"title": title, "body": "x"}, format="json")

    assert _error(response, 400, "no_slug")["errors"] == {"slug": ["The title gives no usable address; type a slug."]}


@pytest.mark.parametrize("title", ["\u200b", "\u200b\u200c\u2060", "\ufeff ", "\u202eevil", "a\u2066b"])
def test_an_invisible_or_direction_overriding_title_is_refused_on_the_title(editor_api: APIClient, title: str) -> None:
    response = editor_api.post("/api/v1/pages/", {"title": title, "body": "x"}, format="json")

    assert set(_error(response, 400, "invalid_characters")["errors"]) == {"title"}
    assert not Page.objects.exists()


@pytest.mark.parametrize("title", ["\u200b\u200b", "\u2060", "\u202eevil", "Re\u2067Act"])
def test_a_work_with_an_invisible_or_direction_overriding_title_is_refused(editor_api: APIClient, title: str) -> None:
    response = editor_api.post("/api/v1/sources/", {"title": title}, format="json")

    assert "title" in _error(response, 400)["errors"]
    assert not Source.objects.exists()


@pytest.mark.parametrize("field", ["authors", "abstract", "notes"])
def test_a_work_with_a_direction_override_in_its_text_is_refused_on_that_field(editor_api: APIClient, field: str) -> None:
    response = editor_api.post("/api/v1/sources/", {"title": "Spoof", field: "Org\u202eevil, B. Author"}, format="json")

    assert set(_error(response, 400, "invalid_characters")["errors"]) == {field}
    assert not Source.objects.exists()


def test_a_page_summary_or_a_question_with_a_direction_override_is_refused(editor_api: APIClient) -> None:
    page = editor_api.post("/api/v1/pages/", {"title": "Spoof", "summary": "a\u2067b", "body": "x"}, format="json")
    question = editor_api.post("/api/v1/questions/", {"title": "Spoof?", "text": "a\u202eb"}, format="json")

    assert set(_error(page, 400, "invalid_characters")["errors"]) == {"summary"}
    assert set(_error(question, 400, "invalid_characters")["errors"]) == {"text"}
    assert not Page.objects.exists()


def test_a_csl_json_import_with_a_direction_override_in_an_author_refuses_that_entry(editor_api: APIClient) -> None:
    entries = [{"id": "spoof", "type": "article", "title": "Spoof", "author": [{"literal": "Org\u202eevil"}]},
               {"id": "fine", "type": "article", "title": "Fine work"}]
    response = editor_api.post("/api/v1/sources/import/", data=json.dumps(entries).encode(),
                               content_type="application/vnd.citationstyles.csl+json")

    assert response.status_code in (200, 201), response.json()
    assert [e["title"] for e in response.json()["created"]] == ["Fine work"]
    assert len(response.json()["refused"]) == 1
    assert list(Source.objects.values_list("title", flat=True)) == ["Fine work"]


@pytest.mark.parametrize("title", ["---", "_", "-_-"])
def test_a_title_of_hyphens_and_underscores_gives_no_slug_and_asks_for_one(editor_api: APIClient, title: str) -> None:
    response = editor_api.post("/api/v1/pages/", {"title": title, "body": "x"}, format="json")

    assert _error(response, 400)["errors"] == {"slug": ["The title gives no usable address; type a slug."]}
    assert not Page.objects.exists()


@pytest.mark.parametrize("field", ["title", "summary", "comment"])
def test_control_characters_are_refused_in_page_fields(editor_api: APIClient, field: str) -> None:
    payload = {"title": "Fine", "body": "x", field: "bad\u001fvalue"}

    response = editor_api.post("/api/v1/pages/", payload, format="json")

    assert "invalid_characters" in json.dumps(_error(response, 400))
    assert not Page.objects.filter(title="Fine").exists()


def test_control_characters_are_refused_in_a_source_and_a_question(editor_api: APIClient) -> None:
    source = editor_api.post("/api/v1/sources/", {"title": "A\u0007Title"}, format="json")
    question = editor_api.post("/api/v1/questions/", {"title": "Q\u009b"}, format="json")

    assert set(_error(source, 400)["errors"]) == {"title"}
    assert set(_error(question, 400)["errors"]) == {"title"}


def test_deeply_nested_json_is_400(editor_api: APIClient) -> None:
    body = "[" * 5000 + "]" * 5000

    response = editor_api.generic("POST", "/api/v1/pages/", body, content_type="application/json")

    assert "nested deeper than 32 levels" in _error(response, 400, "parse_error")["detail"]


def test_only_json_bodies_are_read(editor_api: APIClient) -> None:
    response = editor_api.post("/api/v1/pages/", {"title": "Form", "body": "x"}, format="multipart")

    _error(response, 415, "unsupported_media_type")


def test_limits_hold_for_the_api_as_for_the_form(editor_api: APIClient) -> None:
    abstract = editor_api.post("/api/v1/sources/", {"title": "Long", "abstract": "a" * 60_000}, format="json")
    summary = editor_api.post("/api/v1/pages/", {"title": "Long", "summary": "s" * 2_001, "body": "x"}, format="json")
    year = editor_api.post("/api/v1/sources/", {"title": "Old", "year": 1066}, format="json")

    assert set(_error(abstract, 400)["errors"]) == {"abstract"}
    assert set(_error(summary, 400)["errors"]) == {"summary"}
    assert set(_error(year, 400)["errors"]) == {"year"}
    assert not Source.objects.filter(title__in=["Long", "Old"]).exists()


def test_the_same_limit_holds_for_a_service_caller() -> None:
    from django.core.exceptions import ValidationError

    from wiki.references.draft import SourceDraft
    from wiki.services.sources import source_create

    with pytest.raises(ValidationError) as error:
        source_create(draft=SourceDraft(title="Long", abstract="a" * 20_001))

    assert set(error.value.error_dict) == {"abstract"}


def test_a_url_is_stored_percent_encoded(editor_api: APIClient) -> None:
    response = editor_api.post("/api/v1/sources/", {"title": "Quoted", "url": "https://example.org/a\"<b>/论文?q=<x>"},
                               format="json")

    assert response.status_code == 201, response.content
    assert response.json()["url"] == "https://example.org/a%22%3Cb%3E/%E8%AE%BA%E6%96%87?q=%3Cx%3E"


@pytest.mark.parametrize("query", ["is_orphaned=abc", "is_orphaned=yes", "statuss=verified", "limit=5"])
def test_filters_refuse_bad_values_and_unknown_names(api: APIClient, query: str) -> None:
    _error(api.get(f"/api/v1/claims/?{query}"), 400)


def test_a_boolean_filter_still_filters(api: APIClient) -> None:
    orphaned = api.get("/api/v1/claims/?is_orphaned=true").json()["count"]
    current = api.get("/api/v1/claims/?is_orphaned=false").json()["count"]

    assert orphaned + current == Claim.objects.count() and current == Claim.objects.current().count()


@pytest.mark.parametrize(("path", "query"), [
    ("/api/v1/changes/", "ordering=created_at"),  # newest first always: an oldest-first walk would be answered otherwise
    ("/api/v1/watchlist/", "ordering=created_at"),
    ("/api/v1/findings/", "ordering=kind"),
    ("/api/v1/pages/paged/revisions/", "ordering=number"),
    ("/api/v1/pages/paged/revisions/", "foo=1"),
    ("/api/v1/pages/paged/backlinks/", "page=2"),
    ("/api/v1/pages/paged/revisions/1/", "foo=1"),
    ("/api/v1/claims/{claim}/history/", "page=2"),
    ("/api/v1/search/", "q=GRPO&ordering=title"),
    ("/api/v1/search/names/", "q=GRPO&page=2"),
    ("/api/v1/graph/map/", "page_size=5"),
    ("/api/v1/graph/local/", "node=source:paged-work&after=x"),
    ("/api/v1/sources/export/", "format=bib&page=2"),  # every work, not a page of them
])
def test_ordering_and_paging_sent_where_nothing_is_ordered_or_paged_are_refused(
        editor_api: APIClient, path: str, query: str) -> None:
    work = make_source(slug="paged-work", short_name="Paged work")
    page = make_page(slug="paged", body=f"- A claim.{cite(work)}")
    claim = Claim.objects.get(page=page)

    response = editor_api.get(f"{path.format(claim=claim.pk)}?{query}")

    name = query.split("&")[-1].split("=")[0]
    assert set(_error(response, 400, "unknown_parameter")["errors"]) == {name}
    assert name not in response.json()["errors"][name][0].split("reads ")[1]


def test_the_lists_still_read_their_paging_and_ordering(editor_api: APIClient) -> None:
    make_page(slug="paged", body="Text.")

    for url in ("/api/v1/changes/?page=1&page_size=1", "/api/v1/pages/paged/revisions/?page_size=1",
                "/api/v1/search/?q=text&page=1", "/api/v1/pages/?ordering=-title&page_size=1",
                "/api/v1/sources/export/?format=bib&ordering=-year", "/api/v1/pages/paged/?ordering=title&page=1"):
        assert editor_api.get(url).status_code == 200, (url, editor_api.get(url).content[:300])


def test_search_and_graphs_refuse_unknown_parameters(api: APIClient) -> None:
    _error(api.get("/api/v1/search/?q=GRPO&limit=5"), 400, "unknown_parameter")
    _error(api.get("/api/v1/graph/local/?node=source:skillforge&dept=2"), 400, "unknown_parameter")


@pytest.mark.parametrize("query", ["/api/v1/graph/local/?node=page:agentic-rl&edge_types=",
                                   "/api/v1/graph/contrast/?works=", "/api/v1/search/?q=GRPO&kind="])
def test_search_and_graphs_refuse_empty_parameters(api: APIClient, query: str) -> None:
    _error(api.get(query), 400, "blank")


@pytest.mark.parametrize(("field", "value"), [("narrow", 0), ("narrow", "yes"), ("rl_update", 1), ("component", "1")])
def test_a_classification_field_of_another_json_type_is_400_and_changes_nothing(
        editor_api: APIClient, field: str, value: object) -> None:
    classification = make_classification(make_source(), narrow=False, rl_update=True)
    url = f"/api/v1/classifications/{classification.pk}/"

    body = _error(editor_api.patch(url, {field: value}, format="json", **if_match(editor_api, url)), 400)

    assert set(body["errors"]) == {field}
    classification.refresh_from_db()
    assert (classification.narrow, classification.rl_update, classification.component_id) == (False, True, None)


def test_a_year_sent_as_a_string_is_400(editor_api: APIClient) -> None:
    body = _error(editor_api.post("/api/v1/sources/", {"short_name": "Y", "title": "A Year As Text", "kind": "paper",
                                                        "year": "2024"}, format="json"), 400)
    assert set(body["errors"]) == {"year"}
    assert not Source.objects.filter(title="A Year As Text").exists()


@pytest.mark.parametrize("url", ["/api/v1/sources/export/?format=AAA", "/api/v1/pages/?format=AAA"])
def test_a_format_the_address_does_not_have_is_400(api: APIClient, url: str) -> None:
    body = _error(api.get(url), 400, "invalid_choice")
    assert set(body["errors"]) == {"format"}


@pytest.mark.parametrize("query", ["page=", "page_size=", "page=x"])
def test_a_pagination_parameter_that_is_empty_or_no_number_is_400(api: APIClient, query: str) -> None:
    page = make_page()
    _error(api.get(f"/api/v1/pages/{page.slug}/revisions/?{query}"), 400)


def test_a_text_over_its_limit_is_400_even_when_its_ends_are_blank(api: APIClient) -> None:
    from wiki.api.serializers.classify import MAX_TEXT_LENGTH

    body = _error(api.post("/api/v1/classify/", {"text": "\n" + "a" * MAX_TEXT_LENGTH}, format="json"), 400)
    assert set(body["errors"]) == {"text"}
    assert api.post("/api/v1/classify/", {"text": "\n" + "a" * (MAX_TEXT_LENGTH - 1)}, format="json").status_code == 200


def test_bearer_is_an_alias_of_token(db: None) -> None:
    from tests.factories import make_api_token

    key = make_api_token(make_editor())
    client = APIClient()

    bearer = client.post("/api/v1/questions/", {"title": "Asked with Bearer"}, format="json",
                         HTTP_AUTHORIZATION=f"Bearer {key}")
    wrong = client.post("/api/v1/questions/", {"title": "Wrong"}, format="json", HTTP_AUTHORIZATION="Bearer nope")

    assert bearer.status_code == 201
    _error(wrong, 401, "authentication_failed")


def test_patch_answers_the_whole_object(editor_api: APIClient) -> None:
    classification = make_classification(make_source())
    question = make_question()

    url, question_url = f"/api/v1/classifications/{classification.pk}/", f"/api/v1/questions/{question.pk}/"
    patched = editor_api.patch(url, {"algorithm": "GRPO"}, format="json", **if_match(editor_api, url)).json()
    asked = editor_api.patch(question_url, {"priority": "high"}, format="json", **if_match(editor_api, question_url)).json()

    assert patched["component_name"] is None and patched["algorithm"] == "GRPO" and "rubric_verdict" in patched
    assert asked["assignee"] is None and asked["priority"] == "high"


@pytest.mark.usefixtures("small_wiki")
def test_setting_a_claim_status_keeps_its_citations(editor_api: APIClient) -> None:
    claim = Claim.objects.current().filter(citations__isnull=False).first()
    assert claim is not None
    citations = list(claim.citations.values_list("source_id", "locator", "position"))

    url = f"/api/v1/claims/{claim.pk}/"
    response = editor_api.patch(url, {"status": "disputed"}, format="json", **if_match(editor_api, url))

    assert response.status_code == 200 and response.json()["status"] == "disputed"
    assert list(claim.citations.values_list("source_id", "locator", "position")) == citations


def test_a_pathological_body_is_refused_quickly_with_its_reason(editor_api: APIClient) -> None:
    started = time.perf_counter()
    response = editor_api.post("/api/v1/pages/", {"title": "Tildes", "body": "~" * 100_000}, format="json")
    elapsed = time.perf_counter() - started

    assert "markup characters" in _error(response, 400, "too_complex")["errors"]["body"][0]
    print(f"100,000 tildes refused in {elapsed:.2f} s")


def test_the_feed_survives_any_stored_title(client: Client) -> None:
    ChangeEvent.objects.create(kind="page", action="edited", object_id=1, label="bad\u001ftitle\u007f", summary="s\u0008")

    response = client.get("/changes/feed/")

    assert response.status_code == 200
    document = xml.dom.minidom.parseString(response.content)
    assert "badtitle" in document.toxml()


@pytest.mark.parametrize("query", ["x=1", "format=json&format=json", "page=2"])
def test_the_api_root_refuses_a_parameter_it_does_not_read_as_the_other_reads(api: APIClient, query: str) -> None:
    response = api.get(f"/api/v1/?{query}")

    name = query.split("=")[0]
    assert set(_error(response, 400, "repeated_parameter" if query.count("=") > 1 else "unknown_parameter")["errors"]) == {name}
    assert api.get("/api/v1/?format=json").status_code == 200


YES_NO = [("/api/v1/findings/?dismissed=", "dismissed"), ("/api/v1/changes/?hideminor=", "hideminor"),
          ("/api/v1/watchlist/?hideminor=", "hideminor"), ("/api/v1/claims/?is_orphaned=", "is_orphaned")]


@pytest.mark.parametrize("value", ["yes", "no", "on", "y", "t", "2", "truth"])
def test_every_yes_no_parameter_refuses_the_same_values_with_the_same_400(editor_api: APIClient, value: str) -> None:
    answers = {lang: [editor_api.get(f"{url}{value}", HTTP_ACCEPT_LANGUAGE=lang) for url, _ in YES_NO]
               for lang in ("en", "zh-Hans")}

    for lang, responses in answers.items():
        details = set()
        for (url, name), response in zip(YES_NO, responses, strict=True):
            assert set(_error(response, 400, "invalid")["errors"]) == {name}, (url, lang)
            details.add(response.json()["errors"][name][0])
        assert len(details) == 1, (lang, details)
    assert answers["en"][0].json()["errors"]["dismissed"] != answers["zh-Hans"][0].json()["errors"]["dismissed"]


@pytest.mark.parametrize("value", ["true", "1", "false", "0", "TRUE", "False"])
def test_every_yes_no_parameter_reads_true_1_false_and_0(editor_api: APIClient, value: str) -> None:
    for url, _ in YES_NO:
        assert editor_api.get(f"{url}{value}").status_code == 200, url
