"""POST /api/v1/sources/import/: the file as the body, with its media type; a JSON report per entry."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import make_editor
from tests.wiki.test_references_import import SAME_WORKS_BIBTEX, SAME_WORKS_CSL, SAME_WORKS_RIS
from wiki.models import Source

URL = "/api/v1/sources/import/"


@pytest.fixture
def api(db: None) -> APIClient:
    client = APIClient()
    client.force_authenticate(make_editor())
    return client


@pytest.mark.parametrize(("body", "media_type"), [
    (SAME_WORKS_BIBTEX, "application/x-bibtex"),
    (SAME_WORKS_CSL, "application/vnd.citationstyles.csl+json"),
    (SAME_WORKS_RIS, "application/x-research-info-systems"),
])
def test_each_media_type_imports_and_reports_per_entry(api: APIClient, body: str, media_type: str) -> None:
    response = api.post(URL, data=body.encode(), content_type=media_type)
    assert response.status_code == 200, response.content
    data = response.json()
    assert [entry["key"] for entry in data["created"]] == ["yao2023react", "silver2016"]
    assert data["duplicate"] == [] and data["refused"] == []
    assert Source.objects.filter(arxiv_id="2210.03629", doi="").exists()
    again = api.post(URL, data=body.encode(), content_type=media_type).json()
    assert [(e["slug"], e["line"]) for e in again["duplicate"]] == [(e["slug"], e["line"]) for e in data["created"]]


def test_a_refused_entry_has_its_line_and_reason(api: APIClient) -> None:
    body = "% Encoding: UTF-8\n@article{ok, title={Good Title}}\n@article{bad, title={Bad Year}, year={1066}}\n"
    data = api.post(URL, data=body.encode(), content_type="application/x-bibtex").json()
    assert [e["key"] for e in data["created"]] == ["ok"]
    assert data["refused"][0]["line"] == 3 and "year" in data["refused"][0]["reason"]


def test_a_body_in_no_reference_format_is_a_400_and_changes_nothing(api: APIClient) -> None:
    count = Source.objects.count()
    response = api.post(URL, data=b"just words", content_type="application/x-bibtex")
    assert response.status_code == 400
    assert response.json()["code"] == "no_entries"
    assert Source.objects.count() == count


def test_json_is_not_a_reference_media_type(api: APIClient) -> None:
    assert api.post(URL, data={"x": 1}, format="json").status_code == 415


def test_anonymous_clients_cannot_import(db: None) -> None:
    response = APIClient().post(URL, data=SAME_WORKS_BIBTEX.encode(), content_type="application/x-bibtex")
    assert response.status_code in (401, 403)


@pytest.mark.parametrize("media_type", ["application/x-research-info-systems", "application/x-bibtex",
                                        "application/vnd.citationstyles.csl+json"])
def test_an_empty_body_is_400_and_imports_nothing(api: APIClient, media_type: str) -> None:
    before = Source.objects.count()
    response = api.post(URL, data=b"", content_type=media_type)

    assert response.status_code == 400
    assert "body" in response.json()["errors"]
    assert Source.objects.count() == before


@pytest.mark.parametrize(("body", "code"), [
    (b"[null, null]", "not_csl_json"),
    (b'[{"id": "ok", "title": "A Title That Would Import"}, 7]', "not_csl_json"),
    (b'"a string"', "not_csl_json"),
    (b'{"items": 3}', "not_csl_json"),
    (b"[{", "not_json"),
    (b"[]", "no_entries"),
])
def test_a_csl_body_that_is_not_an_array_of_objects_is_a_400_and_changes_nothing(
        api: APIClient, body: bytes, code: str) -> None:
    before = Source.objects.count()
    response = api.post(URL, data=body, content_type="application/vnd.citationstyles.csl+json")

    assert response.status_code == 400, response.content
    assert response.json()["code"] == code
    assert Source.objects.count() == before
