"""Through the API, any filtered list of works as BibTeX, CSL-JSON or RIS."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from tests.factories import ContrastWiki
from wiki.models import Source
from wiki.references.bibtex import parse_bibtex
from wiki.references.citation_keys import citation_keys
from wiki.references.ris import parse_ris

URL = "/api/v1/sources/export/"


def _papers() -> set[str]:
    return set(citation_keys(list(Source.objects.filter(kind="paper"))).values())


def test_format_bib_answers_a_bibtex_file_of_the_filtered_works(api: APIClient, contrast_wiki: ContrastWiki) -> None:
    response = api.get(URL + "?kind=paper&format=bib")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-bibtex; charset=utf-8"
    entries = parse_bibtex(response.content.decode())
    assert {entry.label for entry in entries} == _papers()
    assert all(entry.errors == [] for entry in entries)


@pytest.mark.parametrize(("accept", "query"), [
    ("application/vnd.citationstyles.csl+json", ""),
    ("*/*", "&format=csl"),
    ("application/json", ""),
])
def test_csl_json_by_accept_or_format(api: APIClient, contrast_wiki: ContrastWiki, accept: str, query: str) -> None:
    response = api.get(URL + "?kind=paper" + query, HTTP_ACCEPT=accept)
    assert response.status_code == 200
    assert response["Content-Type"].split(";")[0] == (accept if accept != "*/*" else "application/vnd.citationstyles.csl+json")
    items = json.loads(response.content)
    assert {item["id"] for item in items} == _papers()
    assert all({"id", "type", "title"} <= set(item) for item in items)


def test_a_format_in_the_query_wins_over_an_accept_header_naming_another(api: APIClient, contrast_wiki: ContrastWiki) -> None:
    response = api.get(URL + "?kind=paper&format=bib", HTTP_ACCEPT="application/json")

    assert response.status_code == 200 and response["Content-Type"] == "application/x-bibtex; charset=utf-8"
    assert {entry.label for entry in parse_bibtex(response.content.decode())} == _papers()


def test_bibtex_by_accept_header_and_the_whole_list_unpaginated(api: APIClient, contrast_wiki: ContrastWiki) -> None:
    response = api.get(URL, HTTP_ACCEPT="application/x-bibtex")
    assert response.status_code == 200
    assert len(parse_bibtex(response.content.decode())) == Source.objects.count()


def test_works_cited_on_a_page(api: APIClient, contrast_wiki: ContrastWiki) -> None:
    items = api.get(URL + f"?cited_on={contrast_wiki.page.slug}&format=csl").json()
    assert contrast_wiki.grpo.slug in {item["id"] for item in items}
    assert contrast_wiki.unclassified.slug not in {item["id"] for item in items}


@pytest.mark.parametrize("query", ["?kinds=paper&format=bib", "?year=abc&format=bib", "?kind=&format=csl"])
def test_a_bad_filter_is_a_json_400(api: APIClient, contrast_wiki: ContrastWiki, query: str) -> None:
    response = api.get(URL + query)
    assert response.status_code == 400
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["code"]


def test_an_unknown_format_is_refused(api: APIClient, contrast_wiki: ContrastWiki) -> None:
    assert api.get(URL + "?format=xml").status_code == 400
    assert api.get(URL, HTTP_ACCEPT="text/html").status_code == 406


@pytest.mark.parametrize(("accept", "query"), [
    ("application/x-research-info-systems", ""),
    ("*/*", "&format=ris"),
])
def test_ris_by_accept_or_format(api: APIClient, contrast_wiki: ContrastWiki, accept: str, query: str) -> None:
    response = api.get(URL + "?kind=paper" + query, HTTP_ACCEPT=accept)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-research-info-systems; charset=utf-8"
    entries = parse_ris(response.content.decode())
    assert {entry.label for entry in entries} == _papers()
    assert all(entry.errors == [] for entry in entries)


@pytest.mark.parametrize(("accept", "media_type"), [
    ("application/x-research-info-systems", "application/x-research-info-systems; charset=utf-8"),
    ("application/x-bibtex", "application/x-bibtex; charset=utf-8"),
    ("application/vnd.citationstyles.csl+json", "application/vnd.citationstyles.csl+json"),
])
def test_an_export_of_no_works_is_still_a_file_of_its_format(api: APIClient, contrast_wiki: ContrastWiki, accept: str,
                                                             media_type: str) -> None:
    response = api.get(URL + "?year=1999", HTTP_ACCEPT=accept)

    assert response.status_code == 200 and response["Content-Type"] == media_type


def test_a_bad_filter_asked_as_ris_is_a_json_400(api: APIClient, contrast_wiki: ContrastWiki) -> None:
    response = api.get(URL + "?year=abc", HTTP_ACCEPT="application/x-research-info-systems")

    assert response.status_code == 400
    assert response["Content-Type"].startswith("application/json") and response.json()["code"]


def test_the_schema_declares_every_media_type(api: APIClient, db: None) -> None:
    schema = api.get("/api/schema/?format=json").json()
    operation = schema["paths"][URL]["get"]
    assert set(operation["responses"]["200"]["content"]) == {
        "application/x-bibtex", "application/vnd.citationstyles.csl+json", "application/x-research-info-systems",
        "application/json"}
    assert {"kind", "mechanism", "cited_on", "format"} <= {p["name"] for p in operation["parameters"]}


def test_the_works_cited_on_a_page_that_does_not_exist_are_a_400_naming_it(api: APIClient, contrast_wiki: ContrastWiki) -> None:
    response = api.get(URL + "?cited_on=nonexistent&format=bib", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("application/json")
    assert "There is no page “nonexistent”." in json.dumps(response.json(), ensure_ascii=False)
