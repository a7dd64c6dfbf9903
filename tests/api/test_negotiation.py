"""Which format an API address answers in, by the Accept header: a media type given ``q=0`` is one the client
refuses (RFC 9110 section 12.5.1), and a 406 names the formats there are."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import make_source

pytestmark = pytest.mark.django_db

SOURCES = "/api/v1/sources/"
EXPORT = "/api/v1/sources/export/"


@pytest.mark.parametrize("accept", ["application/json;q=0", "application/json; q=0.0, text/html;q=0", "*/*;q=0",
                                    "text/html;q=0, application/*;q=0"])
def test_a_format_given_q_0_is_refused_with_a_406_naming_those_there_are(api: APIClient, accept: str) -> None:
    response = api.get(SOURCES, HTTP_ACCEPT=accept, HTTP_ACCEPT_LANGUAGE="en")

    assert response.status_code == 406 and response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == "not_acceptable" and body["available"] == ["application/json", "text/html"]
    assert body["detail"] == ("The Accept header accepts none of the formats this address answers in: "
                              "application/json, text/html.")


def test_the_406_speaks_the_readers_language(api: APIClient) -> None:
    body = api.get(SOURCES, HTTP_ACCEPT="application/json;q=0", HTTP_ACCEPT_LANGUAGE="zh-Hans").json()

    assert body["detail"] == "Accept 头不接受此地址提供的任何格式：application/json、text/html。"
    assert body["available"] == ["application/json", "text/html"]


@pytest.mark.parametrize("accept", ["application/json;q=0, text/html", "*/*, application/json;q=0",
                                    "text/*, application/json;q=0"])
def test_a_format_given_q_0_gives_way_to_another_the_client_accepts(api: APIClient, accept: str) -> None:
    response = api.get(SOURCES, HTTP_ACCEPT=accept)

    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("accept", ["application/json;q=0.5", "application/*;q=0, application/json", "*/*;q=0, application/json",
                                    "text/html;q=0.5, application/json", "application/json, text/html;q=0.9",
                                    "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8, application/json"])
def test_a_format_accepted_more_specifically_or_with_a_quality_above_0_is_answered(api: APIClient, accept: str) -> None:
    response = api.get(SOURCES, HTTP_ACCEPT=accept)

    assert response.status_code == 200 and response["Content-Type"] == "application/json"


@pytest.mark.parametrize("accept", ["application/json;q=0.5, text/html", "application/json;q=0.1, text/*;q=0.2",
                                    "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"])
def test_of_two_formats_the_one_with_the_higher_quality_is_answered(api: APIClient, accept: str) -> None:
    response = api.get(SOURCES, HTTP_ACCEPT=accept)

    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")


def test_an_export_answers_in_the_reference_format_preferred(api: APIClient) -> None:
    make_source(title="An Exported Work", year=2023)

    response = api.get(EXPORT, HTTP_ACCEPT="application/x-bibtex;q=0.5, application/x-research-info-systems;q=0.8")

    assert response.status_code == 200 and response["Content-Type"].startswith("application/x-research-info-systems")


def test_a_format_in_the_query_still_wins_over_the_accept_header(api: APIClient) -> None:
    response = api.get(SOURCES, {"format": "json"}, HTTP_ACCEPT="application/json;q=0")

    assert response.status_code == 200 and response["Content-Type"] == "application/json"


def test_an_export_406_names_the_reference_formats(api: APIClient) -> None:
    response = api.get(EXPORT, HTTP_ACCEPT="text/html")

    assert response.status_code == 406
    assert response.json()["available"] == ["application/x-bibtex", "application/vnd.citationstyles.csl+json",
                                            "application/x-research-info-systems", "application/json"]


def test_the_schema_declares_the_formats_a_406_names(api: APIClient) -> None:
    schema = api.get("/api/schema/", {"format": "json"}).json()
    components = schema["components"]

    refused = components["responses"]["NotAcceptable"]["content"]["application/json"]["schema"]
    assert refused == {"$ref": "#/components/schemas/NotAcceptableError"}
    body = components["schemas"]["NotAcceptableError"]
    assert "available" in body["required"] and set(components["schemas"]["Error"]["required"]) < set(body["required"])
    assert body["properties"]["available"]["items"] == {"type": "string"}
