"""POST /api/v1/sources/import/: the file as the body, with its media type; a JSON report per entry."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import make_editor, make_source
from tests.wiki.test_references_import import SAME_WORKS_BIBTEX, SAME_WORKS_CSL, SAME_WORKS_RIS
from wiki.models import Component, Source, SourceImport

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
    (SAME_WORKS_BIBTEX, "text/x-bibtex"),
    (SAME_WORKS_BIBTEX, "application/x-biblatex"),
    (SAME_WORKS_CSL, "application/citeproc+json"),
    (SAME_WORKS_RIS, "application/x-ris"),
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
    response = api.post(URL, data={"x": 1}, format="json")

    assert response.status_code == 415 and response.json()["code"] == "unsupported_media_type"
    assert "415" in api.get("/api/schema/?format=json").json()["paths"][URL]["post"]["responses"]


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


@pytest.mark.parametrize(("body", "code"), [
    (b"[" * 5000 + b"]" * 5000, "too_deep"),  # deeper than Python's reader recurses
    (b'[{"id": "deep", "title": "Deep", "note": ' + b"[" * 600 + b"]" * 600 + b"}]", "too_deep"),
    (b'[{"id": "big", "title": "Big", "issued": {"date-parts": [[1' + b"0" * 5000 + b"]]}}]", "not_json"),
])
def test_a_csl_body_nested_too_deeply_or_with_too_long_a_number_is_a_400_that_says_so_and_changes_nothing(
        api: APIClient, body: bytes, code: str) -> None:
    before = (Source.objects.count(), SourceImport.objects.count())
    response = api.post(URL, data=body, content_type="application/vnd.citationstyles.csl+json")

    assert response.status_code == 400, response.content
    assert response.json()["code"] == code
    assert "32" in response.json()["detail"] if code == "too_deep" else "Exceeds" not in response.json()["detail"]
    assert (Source.objects.count(), SourceImport.objects.count()) == before


def test_a_body_in_a_declared_charset_is_read_in_it(api: APIClient) -> None:
    body = "@misc{caf, title={Caf\u00e9 \u00e0 la carte}, author={M\u00fcller, J\u00fcrgen}}".encode("latin-1")
    response = api.post(URL, data=body, content_type="application/x-bibtex; charset=latin-1")
    assert response.status_code == 200, response.content
    source = Source.objects.get(slug=response.json()["created"][0]["slug"])
    assert (source.title, source.authors) == ("Café à la carte", "Müller, Jürgen")


def test_a_utf16_body_with_its_byte_order_mark_is_read(api: APIClient) -> None:
    body = "@misc{u16, title={“Quoted” – 10 €}}".encode("utf-16")
    response = api.post(URL, data=body, content_type="application/x-bibtex")
    assert response.status_code == 200, response.content
    assert response.json()["created"][0]["title"] == "“Quoted” – 10 €"


def test_a_body_that_is_not_utf8_and_declares_nothing_is_a_400_that_says_so_in_chinese(api: APIClient) -> None:
    before = Source.objects.count()
    response = api.post(URL, data="@misc{w, title={\u201cQuoted\u201d}}".encode("cp1252"), content_type="application/x-bibtex",
                        HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "not_utf8" and "文件不是 UTF-8 编码" in body["detail"] and "0x93" in body["detail"]
    assert Source.objects.count() == before


@pytest.mark.parametrize("charset", ["klingon", "base64", "rot13", "hex", "zlib", "punycode", "idna", "undefined",
                                     "unicode_escape"])
def test_a_declared_charset_that_is_no_text_encoding_is_a_400_unknown_charset(api: APIClient, charset: str) -> None:
    response = api.post(URL, data=b"@misc{a, title={A}}", content_type=f"application/x-bibtex; charset={charset}")
    assert (response.status_code, response.json()["code"]) == (400, "unknown_charset")
    assert charset in response.json()["detail"]
    assert not Source.objects.exists()


def test_a_body_over_the_import_limit_is_a_413_too_large(api: APIClient) -> None:
    body = b"@misc{k, title={" + b"x" * (5 * 1024 * 1024) + b"}}"
    response = api.post(URL, data=body, content_type="application/x-bibtex")
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"


def test_reasons_in_the_report_are_in_the_clients_language(api: APIClient) -> None:
    make_source(arxiv_id="2210.03629")
    body = b"@misc{dup, title={ReAct}, eprint={2210.03629}, archivePrefix={arXiv}}\n@misc{none, author={X}}\n"
    data = api.post(URL, data=body, content_type="application/x-bibtex", HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    assert data["duplicate"][0]["reason"] == "arXiv ID 相同（2210.03629）"
    assert data["refused"][0]["reason"] == "没有标题"


def test_a_contrast_with_another_works_component_is_refused_in_chinese(api: APIClient) -> None:
    left, right = make_source(title="Left work"), make_source(title="Right work")
    component = Component.objects.create(source=right, slug="part", name="Part")
    response = api.post("/api/v1/contrasts/", {"left": left.slug, "right": right.slug, "left_component": component.pk,
                                               "axis": "reward"}, format="json", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 400
    assert response.json()["errors"] == {"left_component": ["此组件属于另一个来源。"]}


def test_adding_a_work_by_its_arxiv_doi_finds_the_work_with_that_arxiv_id(api: APIClient) -> None:
    existing = make_source(title="WebArena", arxiv_id="2307.13854")
    response = api.post("/api/v1/sources/", {"title": "WebArena again", "doi": "10.48550/arXiv.2307.13854"}, format="json")
    assert response.status_code == 409, response.content
    assert response.json()["existing"] == existing.slug
    assert not Source.objects.filter(title="WebArena again").exists()


def test_an_identifier_field_with_two_identifiers_is_a_400(api: APIClient) -> None:
    response = api.post("/api/v1/sources/", {"title": "Two", "arxiv_id": "see also 2501.00002 and 2501.00003"}, format="json")
    assert response.status_code == 400 and "arxiv_id" in response.json()["errors"]
    assert not Source.objects.filter(title="Two").exists()


@pytest.mark.parametrize("media_type", ["application/x-research-info-systems", "application/vnd.citationstyles.csl+json"])
def test_a_body_not_utf8_is_told_to_declare_its_charset_on_the_type_it_was_sent_as(api: APIClient, media_type: str) -> None:
    body = "TY  - JOUR\nTI  - Caf\u00e9\nER  - \n".encode("cp1252")
    response = api.post(URL, data=body, content_type=media_type)
    assert response.status_code == 400
    assert f"Content-Type: {media_type}; charset=windows-1252" in response.json()["detail"]


def test_a_body_whose_every_entry_is_refused_is_a_400_that_says_why_and_records_no_import(api: APIClient) -> None:
    body = "@misc{notitle, author={Z}}\n@article{bad, title={Bad Year}, year={1066}}\n"

    response = api.post(URL, data=body.encode(), content_type="application/x-bibtex")

    assert response.status_code == 400
    data = response.json()
    assert (data["code"], data["detail"]) == ("all_refused", "Nothing was imported: each of the file's 2 entries was refused.")
    assert "id" not in data and data["format"] == "bibtex" and data["created"] == data["duplicate"] == []
    assert [(entry["line"], entry["key"], entry["reason"]) for entry in data["refused"]] == [
        (1, "notitle", "no title"), (2, "bad", "year “1066” is not a year")]
    assert not SourceImport.objects.exists() and not Source.objects.filter(title="Bad Year").exists()
    chinese = api.post(URL, data=body.encode(), content_type="application/x-bibtex", HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    assert chinese["detail"] == "未导入任何内容：文件的 2 个条目全部被拒绝。"
