from __future__ import annotations

import gzip
import io
from collections.abc import Callable
from typing import Any

import pytest
from pytest_django import Settings
from rest_framework.test import APIClient

from tests.factories import ContrastWiki, make_page, make_source
from wiki.api.parsers import WikiJSONParser
from wiki.models import OpenQuestion, Page, Source
from wiki.roles import Account

pytestmark = pytest.mark.django_db


def _is_error(body: dict[str, Any], code: str) -> bool:
    return set(body) >= {"detail", "code", "errors", "codes"} and body["code"] == code and isinstance(body["detail"], str)


def test_invalid_filter_is_400_with_field_errors(api: APIClient) -> None:
    response = api.get("/api/v1/sources/", {"year": "abc", "mechanism": "magic"})

    assert response.status_code == 400
    body = response.json()
    assert _is_error(body, "invalid") or _is_error(body, "invalid_choice")
    assert set(body["errors"]) == {"year", "mechanism"}


def test_missing_search_query_is_400(api: APIClient) -> None:
    response = api.get("/api/v1/search/")

    assert response.status_code == 400
    assert _is_error(response.json(), "required")
    assert response.json()["errors"] == {"q": ["This field is required."]}


def test_unknown_object_is_404(api: APIClient) -> None:
    response = api.get("/api/v1/sources/no-such-work/")

    assert response.status_code == 404
    assert _is_error(response.json(), "not_found")


def test_an_address_without_its_final_slash_is_redirected_to_it_a_write_with_308(editor_api: APIClient) -> None:
    read = editor_api.get("/api/v1/sources?year=2024&page_size=1")
    head = editor_api.head("/api/v1/pages")
    write = editor_api.post("/api/v1/questions", {"title": "Sent without the slash?"}, format="json")

    assert (read.status_code, read["Location"]) == (301, "http://testserver/api/v1/sources/?year=2024&page_size=1")
    assert (head.status_code, head["Location"]) == (301, "http://testserver/api/v1/pages/")
    # repeated there with its method and body, not turned into a GET, and not made here
    assert (write.status_code, write["Location"]) == (308, "http://testserver/api/v1/questions/")
    assert not OpenQuestion.objects.exists()
    assert editor_api.post(write["Location"], {"title": "Sent without the slash?"}, format="json").status_code == 201


def test_an_address_no_endpoint_has_with_or_without_its_slash_is_a_404_naming_no_methods(api: APIClient) -> None:
    for url in ("/api/v1/no-such-list", "/api/v1/no-such-list/", "/api/v1/sources/a/b/c"):
        response = api.post(url) if url.endswith("c") else api.get(url)
        assert response.status_code == 404 and _is_error(response.json(), "not_found"), url
        assert not response.has_header("Allow"), url


@pytest.mark.parametrize(("method", "path", "query"), [
    ("post", "/api/v1/sources/import/", "dry_run=1"),  # as manage.py import_references --dry-run: imported for good else
    ("post", "/api/v1/questions/", "title=Sent+in+the+query"),
    ("patch", "/api/v1/pages/written/", "minor=1"),
    ("delete", "/api/v1/watchlist/pages/written/", "all=1"),
])
def test_a_write_with_a_query_parameter_it_does_not_read_is_a_400_naming_it_and_writes_nothing(
        editor_api: APIClient, method: str, path: str, query: str) -> None:
    page = make_page(slug="written", title="Written", body="Text.")
    revisions = page.revisions.count()
    body: object = {"title": "Sent in the body", "summary": "Changed?", "base_revision": revisions}

    if path.endswith("import/"):
        response = editor_api.post(f"{path}?{query}", b"@misc{w, title={Imported Or Not}}", content_type="application/x-bibtex")
    else:
        response = getattr(editor_api, method)(f"{path}?{query}", body, format="json", HTTP_IF_MATCH="*")

    assert response.status_code == 400, response.content
    name = query.split("=")[0]
    assert _is_error(response.json(), "unknown_parameter") and set(response.json()["errors"]) == {name}
    assert response.json()["detail"].startswith(f"{name}: ")
    assert not Source.objects.exists() and not OpenQuestion.objects.exists()
    assert page.revisions.count() == revisions


def test_a_write_keeps_the_format_and_the_list_parameters_of_the_address_it_was_read_from(editor_api: APIClient) -> None:
    response = editor_api.post("/api/v1/questions/?format=json&page_size=5&ordering=title", {"title": "Kept?"}, format="json")

    assert response.status_code == 201, response.content
    assert editor_api.post("/api/v1/no-such-list/?x=1").status_code == 404
    # a method the endpoint does not answer stays its 405, whatever the query
    assert editor_api.generic("TRACE", "/api/v1/graph/map/?limit=5").status_code == 405
    assert editor_api.post("/api/v1/graph/map/?limit=5").status_code == 405
    assert editor_api.delete("/api/v1/claims/1/?x=1").status_code == 405


@pytest.mark.parametrize(("path", "media_type", "body"), [
    ("/api/v1/questions/", "application/json", b'{"title": "Compressed?"}'),
    ("/api/v1/sources/import/", "application/x-bibtex", b"@misc{gz, title={Compressed Or Not}}"),
])
def test_a_compressed_body_is_a_415_saying_so_not_a_400_about_its_bytes(
        editor_api: APIClient, path: str, media_type: str, body: bytes) -> None:
    response = editor_api.post(path, gzip.compress(body), content_type=media_type, HTTP_CONTENT_ENCODING="gzip",
                               HTTP_ACCEPT_LANGUAGE="zh-hans")

    assert response.status_code == 415, response.content
    assert _is_error(response.json(), "unsupported_encoding") and "gzip" in response.json()["detail"]
    assert "UTF-8" not in response.json()["detail"]
    assert not OpenQuestion.objects.exists() and not Source.objects.exists()
    uncoded = editor_api.post(path, body, content_type=media_type, HTTP_CONTENT_ENCODING="identity")
    assert uncoded.status_code in (200, 201), uncoded.content


def test_anonymous_write_is_refused(api: APIClient) -> None:
    response = api.post("/api/v1/pages/", {"title": "X", "body": "Y"}, format="json")

    assert response.status_code in (401, 403)
    assert _is_error(response.json(), "not_authenticated")


def test_reader_write_is_403(contrast_wiki: ContrastWiki, reader_api: APIClient) -> None:
    response = reader_api.post("/api/v1/pages/", {"title": "X", "body": "Y"}, format="json")

    assert response.status_code == 403
    assert _is_error(response.json(), "permission_denied")


def test_unsupported_method_is_405(contrast_wiki: ContrastWiki, editor_api: APIClient) -> None:
    response = editor_api.delete("/api/v1/pages/contrast-wiki/")

    assert response.status_code == 405
    assert _is_error(response.json(), "method_not_allowed")


def test_anonymous_clients_are_throttled_with_429(settings: Settings, api: APIClient) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "3/minute"}}

    statuses = [api.get("/api/v1/pages/").status_code for _ in range(4)]

    assert statuses == [200, 200, 200, 429]
    response = api.get("/api/v1/pages/")
    assert _is_error(response.json(), "throttled")
    assert int(response["Retry-After"]) > 0


def test_an_anonymous_client_cannot_escape_its_rate_by_changing_x_forwarded_for(settings: Settings, api: APIClient) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "3/minute"}}

    statuses = [api.get("/api/v1/pages/", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}").status_code for n in range(4)]

    assert statuses == [200, 200, 200, 429]


def test_the_anonymous_count_starts_again_with_the_next_window(settings: Settings, api: APIClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from django.core.cache import cache

    from wiki.api.throttles import AnonThrottle

    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "2/minute"}}
    now = [600.0]
    monkeypatch.setattr(AnonThrottle, "timer", lambda self: now[0])

    assert [api.get("/api/v1/pages/").status_code for _ in range(3)] == [200, 200, 429]
    assert int(api.get("/api/v1/pages/")["Retry-After"]) == 60
    # One whole number per client and window, not a list of request times.
    assert cache.get("throttle_anon_127.0.0.1:10") == 4
    now[0] = 660.0
    assert [api.get("/api/v1/pages/").status_code for _ in range(3)] == [200, 200, 429]


def test_logged_in_clients_are_not_throttled_as_anonymous(settings: Settings, reader_api: APIClient) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "1/minute"}}

    assert [reader_api.get("/api/v1/pages/").status_code for _ in range(3)] == [200, 200, 200]


@pytest.mark.parametrize("ordering", ["nonexistent", "-nonexistent", "title,", "password"])
def test_ordering_by_an_unknown_field_is_400_naming_the_choices(api: APIClient, ordering: str) -> None:
    response = api.get("/api/v1/pages/", {"ordering": ordering})

    assert response.status_code == 400
    assert _is_error(response.json(), "invalid_choice")
    assert "updated_at" in response.json()["errors"]["ordering"][0]


def test_ordering_by_a_listed_field_still_orders(contrast_wiki: ContrastWiki, api: APIClient) -> None:
    response = api.get("/api/v1/sources/", {"ordering": "-year,short_name"})

    assert response.status_code == 200


@pytest.mark.parametrize(("params", "field", "code"), [
    ({"page": "abc"}, "page", "invalid"),
    ({"page": "0"}, "page", "min_value"),
    ({"page_size": "abc"}, "page_size", "invalid"),
    ({"page_size": "0"}, "page_size", "min_value"),
    ({"page_size": "-1"}, "page_size", "min_value"),
    ({"page_size": "100000"}, "page_size", "max_value"),
])
def test_malformed_page_or_page_size_is_400(api: APIClient, params: dict[str, str], field: str, code: str) -> None:
    response = api.get("/api/v1/claims/", params)

    assert response.status_code == 400
    assert _is_error(response.json(), code)
    assert set(response.json()["errors"]) == {field}


def test_page_past_the_last_is_404(contrast_wiki: ContrastWiki, api: APIClient) -> None:
    response = api.get("/api/v1/claims/", {"page": 999})

    assert response.status_code == 404
    assert _is_error(response.json(), "not_found")
    # the parameter at fault is named, which tells a page past the end from an address that names nothing
    assert response.json()["codes"] == {"page": ["not_found"]}
    assert api.get("/api/v1/nothing-here/").json()["codes"] == {}


def test_anonymous_write_is_401_asking_for_a_token(api: APIClient) -> None:
    response = api.post("/api/v1/pages/", {"title": "X", "body": "Y"}, format="json")

    assert response.status_code == 401
    # both schemes the API reads, as two challenges: a client sending Bearer learns that it is one
    assert response["WWW-Authenticate"] == 'Token realm="api", Bearer realm="api"'
    assert _is_error(response.json(), "not_authenticated")


@pytest.mark.parametrize("header", ["Token nope", "Token", "Token a b", "Bearer nope", "Basic YWxpY2U6eA=="])
def test_a_wrong_token_is_401_on_reads_and_writes(contrast_wiki: ContrastWiki, api: APIClient, header: str) -> None:
    api.credentials(HTTP_AUTHORIZATION=header)

    read = api.get("/api/v1/sources/")
    write = api.post("/api/v1/pages/", {"title": "X", "body": "Y"}, format="json")

    assert read.status_code == write.status_code == 401
    assert read["WWW-Authenticate"] == write["WWW-Authenticate"] == 'Token realm="api", Bearer realm="api"'
    assert _is_error(read.json(), "authentication_failed") and _is_error(write.json(), "authentication_failed")


@pytest.mark.parametrize("value", [7, 0.5, True, ["a title"], {"t": 1}])
def test_a_number_or_object_sent_for_a_text_field_is_400_and_writes_nothing(editor_api: APIClient, value: object) -> None:
    from wiki.models import Page

    before = Page.objects.count()
    response = editor_api.post("/api/v1/pages/", {"title": value, "body": "Text."}, format="json")

    assert response.status_code == 400
    assert "title" in str(response.json())
    assert Page.objects.count() == before


def test_classify_refuses_a_number_for_its_subject(api: APIClient) -> None:
    response = api.post("/api/v1/classify/", {"text": "We train the policy with GRPO.", "subject": 0}, format="json")

    assert response.status_code == 400
    assert "subject" in str(response.json())


def test_search_refuses_an_empty_filter_but_takes_an_empty_query(api: APIClient) -> None:
    response = api.get("/api/v1/search/?kind=&mechanism=&q=")

    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"kind", "mechanism"}
    assert api.get("/api/v1/search/?q=").status_code == 200


def test_a_number_sent_for_a_slug_is_400(editor_api: APIClient) -> None:
    response = editor_api.post("/api/v1/questions/", {"title": "Numbers for slugs?", "sources": [0]}, format="json")

    assert response.status_code == 400
    assert "sources" in response.json()["errors"]


def test_an_object_sent_for_a_list_of_works_is_400(editor_api: APIClient) -> None:
    response = editor_api.post("/api/v1/questions/", {"title": "An object for a list?", "sources": {}}, format="json")

    assert response.status_code == 400
    assert "sources" in response.json()["errors"]


def test_an_empty_slug_for_a_related_page_is_400_not_null(editor_api: APIClient) -> None:
    response = editor_api.post("/api/v1/questions/", {"title": "Empty page slug?", "page": ""}, format="json")

    assert response.status_code == 400
    assert "page" in response.json()["errors"]


@pytest.mark.parametrize("path", [
    "/api/v1/pages/%00/", "/api/v1/pages/%00/revisions/", "/api/v1/pages/%00/backlinks/", "/api/v1/pages/a%00b/",
    "/api/v1/glossary/%00/", "/api/v1/sources/%00/", "/api/v1/questions/%00/", "/api/v1/claims/%00/",
    "/api/v1/pages/%01/",
])
def test_a_control_character_in_an_address_is_404_not_500(editor_api: APIClient, path: str) -> None:
    response = editor_api.get(path)

    assert response.status_code == 404 and _is_error(response.json(), "not_found")
    assert editor_api.patch(path, {"body": "x"}, format="json").status_code in (404, 405)


@pytest.mark.parametrize("path", ["/api/v1/watchlist/pages/%00/", "/api/v1/watchlist/pages/a%00b/",
                                  "/api/v1/watchlist/pages/%01/"])
def test_a_control_character_in_a_watch_address_is_404_not_500(editor_api: APIClient, path: str) -> None:
    for method in ("get", "put", "delete"):
        response = getattr(editor_api, method)(path)

        assert response.status_code == 404 and _is_error(response.json(), "not_found"), method


def test_a_body_that_is_not_json_says_where_in_one_translated_message(editor_api: APIClient) -> None:
    english = editor_api.post("/api/v1/pages/", b'{"title": "t",\n "body": }', content_type="application/json")
    chinese = editor_api.post("/api/v1/pages/", b'{"title": ', content_type="application/json", HTTP_ACCEPT_LANGUAGE="zh-hans")
    digits = editor_api.post("/api/v1/pages/", b'{"title": 1' + b"1" * 5000 + b"}", content_type="application/json")
    nan = editor_api.post("/api/v1/pages/", b'{"title": NaN}', content_type="application/json")

    assert english.status_code == 400 and _is_error(english.json(), "parse_error")
    assert english.json()["detail"] == "The body is not valid JSON: line 2, column 10."
    assert chinese.json()["detail"] == "请求正文不是有效的 JSON：第 1 行第 11 列。"
    assert digits.json()["detail"] == "The body is not valid JSON: a number has too many digits."
    assert nan.json()["detail"] == "The body is not valid JSON: NaN is not a JSON value."
    for response in (english, digits, nan):
        assert "sys." not in response.json()["detail"] and "char" not in response.json()["detail"]


def test_a_body_naming_a_key_twice_is_refused_and_changes_nothing(editor_api: APIClient) -> None:
    body = b'{"title": "Twice", "body": "first", "nested": {"a": 1}, "body": "second"}'
    english = editor_api.post("/api/v1/pages/", body, content_type="application/json")
    chinese = editor_api.post("/api/v1/pages/", b'{"title": "Twice", "meta": {"k": 1, "k": 2}}',
                              content_type="application/json", HTTP_ACCEPT_LANGUAGE="zh-hans")

    assert english.status_code == 400 and _is_error(english.json(), "repeated_key")
    assert english.json()["detail"] == "The body names the key “body” twice in one object; each key may appear once."
    assert chinese.status_code == 400 and chinese.json()["detail"] == "请求正文在同一个对象中两次给出键“k”；每个键只能出现一次。"
    assert not Page.objects.filter(title="Twice").exists()
    # The same key in two objects is no repetition.
    assert WikiJSONParser().parse(io.BytesIO(b'[{"body": 1}, {"body": 2, "o": {"body": 3}}]')) == [
        {"body": 1}, {"body": 2, "o": {"body": 3}}]


def test_a_json_body_after_a_byte_order_mark_is_read(editor_api: APIClient) -> None:
    response = editor_api.post("/api/v1/pages/", '\ufeff{"title": "BOM page", "body": "x"}'.encode(),
                               content_type="application/json")

    assert response.status_code == 201 and response.json()["slug"] == "bom-page"


@pytest.mark.parametrize("charset", ["base64", "rot13", "zlib", "punycode", "latin-1", "utf-16", "bogus"])
def test_a_json_body_declared_in_a_charset_other_than_utf8_is_400_and_writes_nothing(
    editor_api: APIClient, charset: str,
) -> None:
    from wiki.models import Source

    response = editor_api.post("/api/v1/sources/", b'{"title": "Declared"}',
                               content_type=f"application/json; charset={charset}")

    assert response.status_code == 400 and _is_error(response.json(), "unsupported_charset")
    assert charset in response.json()["detail"] and "UTF-8" in response.json()["detail"]
    assert not Source.objects.filter(title="Declared").exists()


@pytest.mark.parametrize("charset", ["base64", "rot13", "punycode"])
def test_a_query_string_beside_a_charset_naming_no_text_encoding_is_still_read(charset: str, editor: Account) -> None:
    """Through the WSGI application the server runs: Django's own request class fails while it is built."""
    import io
    import json
    from wsgiref.util import setup_testing_defaults

    from django.core import signals
    from django.db import close_old_connections

    from config.wsgi import application
    from tests.factories import make_api_token

    key = make_api_token(editor)

    def call(method: str, query: str, body: bytes) -> tuple[str, Any]:
        environ: dict[str, Any] = {"REQUEST_METHOD": method, "PATH_INFO": "/api/v1/sources/", "QUERY_STRING": query,
                                   "CONTENT_TYPE": f"application/json; charset={charset}", "CONTENT_LENGTH": str(len(body)),
                                   "wsgi.input": io.BytesIO(body), "SERVER_NAME": "testserver", "HTTP_HOST": "testserver",
                                   "HTTP_AUTHORIZATION": f"Bearer {key}"}
        setup_testing_defaults(environ)
        started: list[str] = []

        def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable[[bytes], object]:
            started.append(status)
            return lambda data: None

        # As Django's test client does: the test's transaction holds the connection the request must not close.
        signals.request_started.disconnect(close_old_connections)
        signals.request_finished.disconnect(close_old_connections)
        try:
            chunks = application(environ, start_response)
            return started[0], json.loads(b"".join(chunks))
        finally:
            signals.request_started.connect(close_old_connections)
            signals.request_finished.connect(close_old_connections)

    status, listed = call("GET", "kind=paper&page_size=2", b"")
    refused, error = call("POST", "format=json", b'{"title": "Declared"}')

    assert status.startswith("200") and "results" in listed
    assert refused.startswith("400") and error["code"] == "unsupported_charset"


@pytest.mark.parametrize("charset", ["utf-8", "UTF8", "us-ascii"])
def test_a_json_body_declared_utf8_or_ascii_is_read(editor_api: APIClient, charset: str) -> None:
    response = editor_api.post("/api/v1/sources/", '{"title": "Déclaré"}'.encode(), content_type=f"application/json; charset={charset}")

    assert response.status_code == 201, response.content


def test_a_body_over_the_upload_limit_is_413_naming_the_limit_without_a_traceback(
        editor_api: APIClient, settings: Settings, caplog: pytest.LogCaptureFixture) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
    body = b'{"title": "big", "body": "' + b"x" * (1024 * 1024 + 10) + b'"}'

    response = editor_api.post("/api/v1/pages/", body, content_type="application/json")
    chinese = editor_api.post("/api/v1/pages/", body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="zh-hans")

    assert response.status_code == 413 and _is_error(response.json(), "too_large")
    assert response.json()["detail"] == "The request is larger than the limit of 1 MB; nothing was saved."
    assert chinese.json()["detail"] == "请求大于 1 MB 的上限；没有保存任何内容。"
    assert not any(record.exc_info for record in caplog.records)
    assert not any(record.levelname == "ERROR" for record in caplog.records)


def test_a_nul_in_a_text_gives_one_translated_message(editor_api: APIClient) -> None:
    response = editor_api.post("/api/v1/pages/", {"title": "t", "body": "a\x00b"}, format="json",
                               HTTP_ACCEPT_LANGUAGE="zh-hans")

    assert response.status_code == 400
    assert response.json()["errors"] == {"body": ["请删除控制字符（制表符和换行符除外）和文字方向控制符（U+202A–U+202E、U+2066–U+2069）。"]}


def test_a_contrast_of_a_work_with_itself_says_so_not_the_constraint_name(
        contrast_wiki: ContrastWiki, editor_api: APIClient) -> None:
    data = {"left": "gripforge", "right": "gripforge", "axis": "x"}

    english = editor_api.post("/api/v1/contrasts/", data, format="json")
    chinese = editor_api.post("/api/v1/contrasts/", data, format="json", HTTP_ACCEPT_LANGUAGE="zh-hans")

    assert english.status_code == 400 and _is_error(english.json(), "same_sides")
    assert english.json()["errors"] == {
        "non_field_errors": ["A work (or component) cannot be contrasted with itself: choose two different sides."]}
    assert "contrast_sides_differ" not in chinese.json()["detail"] and "不能" in chinese.json()["detail"]


def test_messages_of_page_edits_graphs_and_field_rules_are_translated(contrast_wiki: ContrastWiki, editor_api: APIClient) -> None:
    no_base = editor_api.patch("/api/v1/pages/contrast-wiki/", {"body": "x"}, format="json", HTTP_ACCEPT_LANGUAGE="zh-hans")
    graph = editor_api.get("/api/v1/graph/contrast/", {"works": "gripforge"}, HTTP_ACCEPT_LANGUAGE="zh-hans")
    title = editor_api.post("/api/v1/pages/", {"title": "\x01", "body": "x"}, format="json", HTTP_ACCEPT_LANGUAGE="zh-hans")
    slug = editor_api.post("/api/v1/pages/", {"title": "t", "slug": "a b", "body": "x"}, format="json",
                           HTTP_ACCEPT_LANGUAGE="zh-hans")

    assert set(no_base.json()["errors"]) == {"base_revision"}
    assert set(graph.json()["errors"]) == {"works"}
    assert set(title.json()["errors"]) == {"title"}
    assert set(slug.json()["errors"]) == {"slug"}
    for response in (no_base, graph, title, slug):
        message = next(iter(response.json()["errors"].values()))[0]
        assert response.status_code == 400 and any("\u4e00" <= ch <= "\u9fff" for ch in message), message
        assert not any(word in message for word in ("Send", "Name", "Type", "Use")), message


def test_a_detail_refuses_a_parameter_it_does_not_read_as_a_list_does(contrast_wiki: ContrastWiki, api: APIClient) -> None:
    response = api.get("/api/v1/pages/contrast-wiki/", {"mechanism": "policy_gradient"})

    assert response.status_code == 400 and _is_error(response.json(), "unknown_parameter")
    assert response.json()["errors"] == {"mechanism": ["Unknown parameter; this endpoint reads after, format, ordering, page, page_size."]}
    assert api.get("/api/v1/sources/gripforge/", {"year": "2026"}).status_code == 400
    assert api.get("/api/v1/glossary/policy-gradient/", {"q": "x"}).status_code == 400
    assert api.get("/api/v1/pages/contrast-wiki/", {"format": "json"}).status_code == 200


@pytest.mark.parametrize(("path", "data"), [
    ("/api/v1/contrasts/", {"left": "a\x00", "right": "gripforge", "axis": "x"}),
    ("/api/v1/questions/", {"title": "t", "page": "a\x00"}),
    ("/api/v1/questions/", {"title": "t", "sources": ["gripforge", "b\x00"]}),
])
def test_a_nul_in_a_slug_sent_in_a_body_is_400_not_500(contrast_wiki: ContrastWiki, editor_api: APIClient,
                                                       path: str, data: dict[str, Any]) -> None:
    response = editor_api.post(path, data, format="json")

    assert response.status_code == 400 and "\\x00" in response.json()["detail"]


@pytest.mark.parametrize(("field", "value"), [("authors", "Ada Lovelace\x1f"), ("title", "\x85A Study of Agents"), ("notes", "x\x1c")])
def test_a_control_character_at_either_end_is_refused_as_sent_not_trimmed_away(
        editor_api: APIClient, field: str, value: str) -> None:
    from wiki.models import Source

    body = {"title": "A Study of Agents", field: value}
    response = editor_api.post("/api/v1/sources/", body, format="json")
    assert response.status_code == 400 and field in response.json()["errors"]
    assert not Source.objects.filter(title="A Study of Agents").exists()


@pytest.mark.parametrize("path", ["/api/v2/", "/api/nothing/", "/api/v1/nothing/"])
def test_an_address_under_the_api_that_names_nothing_is_a_404_in_the_error_shape(api: APIClient, path: str) -> None:
    response = api.get(path)

    assert response.status_code == 404 and response["Content-Type"].startswith("application/json")
    assert response.json()["code"] == "not_found"


def test_the_api_root_leads_to_its_version(api: APIClient) -> None:
    response = api.get("/api/")

    assert response.status_code == 302 and response["Location"] == "/api/v1/"
    assert api.get("/api/v1/").status_code == 200


@pytest.mark.parametrize("query", ["/api/v1/sources/?year=2023&year=2024", "/api/v1/sources/?kind=paper&kind=blog",
                                   "/api/v1/search/?q=grpo&q=ppo", "/api/v1/claims/?status=verified&status=disputed"])
def test_a_parameter_sent_twice_is_refused_rather_than_read_as_its_last_value(api: APIClient, query: str) -> None:
    response = api.get(query)

    assert response.status_code == 400 and _is_error(response.json(), "repeated_parameter")
    name = query.split("?")[1].split("=")[0]
    assert list(response.json()["errors"]) == [name]


@pytest.mark.parametrize("query", ["/api/v1/claims/?page_slug=no-such-page", "/api/v1/claims/?source=no-such-work",
                                   "/api/v1/classifications/?source=no-such-work", "/api/v1/contrasts/?work=no-such-work",
                                   "/api/v1/questions/?page_slug=no-such-page"])
def test_a_filter_naming_no_page_or_work_is_refused_rather_than_answered_empty(api: APIClient, query: str) -> None:
    response = api.get(query)

    assert response.status_code == 400, response.json()
    assert response.json()["code"] in {"no_page", "no_work"}
    assert "no-such" in response.json()["detail"]


def test_a_filter_naming_a_merged_work_names_the_work_kept(api: APIClient, editor: Account) -> None:
    from wiki.services.merges import source_merge

    source_merge(merged=make_source(slug="twin"), kept=make_source(slug="kept-twin"), user=editor)

    response = api.get("/api/v1/claims/", {"source": "twin"})

    assert response.status_code == 400 and response.json()["code"] == "merged" and "kept-twin" in response.json()["detail"]
    assert api.get("/api/v1/claims/", {"source": "kept-twin"}).status_code == 200


def test_the_api_root_lists_every_address_a_script_starts_from(api: APIClient) -> None:
    root = api.get("/api/v1/").json()

    assert {"pages", "sources", "claims", "classifications", "contrasts", "questions", "glossary"} <= set(root)
    assert {"search", "search-names", "classify", "graph-contrast", "graph-local", "findings", "schema", "docs"} <= set(root)
    # each graph's GraphML address beside its own, as a generated client reads GraphML
    assert {name: root[name] for name in root if name.endswith("-graphml")} == {
        f"graph-{kind}-graphml": f"http://testserver/api/v1/graph/{kind}/graphml/" for kind in ("contrast", "local", "map")}
    assert root["schema"] == "http://testserver/api/schema/" and root["docs"] == "http://testserver/api/docs/"
    assert "watchlist" in root
    for name, url in root.items():
        path = url.removeprefix("http://testserver")
        if name in ("watchlist", "imports"):  # an account's own, or editors': asked anonymously, it says to log in
            assert api.get(path).status_code == 401
        elif name not in {"search", "search-names", "classify", "graph-contrast", "graph-local", "graph-contrast-graphml",
                          "graph-local-graphml"}:  # these ask for parameters
            assert api.get(path).status_code == 200, name


def test_chinese_messages_read_as_chinese_writes_them(api: APIClient, editor_api: APIClient) -> None:
    past_the_last = api.get("/api/v1/pages/", {"page": "99"}, HTTP_ACCEPT_LANGUAGE="zh-hans")
    not_a_year = api.get("/api/v1/sources/", {"year": "abc"}, HTTP_ACCEPT_LANGUAGE="zh-hans")
    delete = editor_api.delete("/api/v1/pages/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    fields = editor_api.post("/api/v1/pages/", {"slug": "!!", "title": ""}, format="json", HTTP_ACCEPT_LANGUAGE="zh-hans")
    english = editor_api.post("/api/v1/pages/", {"slug": "!!", "title": ""}, format="json")

    # A page of results (页码), not a wiki's page (页面).
    assert past_the_last.status_code == 404 and past_the_last.json()["detail"] == "页码无效。"
    assert not_a_year.json()["detail"] == "year：请输入整数。"
    assert delete.status_code == 405 and delete.json()["detail"] == "不允许使用 DELETE 方法。"
    # One sentence, its clauses apart by "；", each field named as a label is: "。; " read as two marks.
    assert fields.json()["detail"] == ("slug：" + fields.json()["errors"]["slug"][0].removesuffix("。") + "；title：这个字段不能为空；"
                                       "body：这个字段是必填项。")
    assert english.json()["detail"] == ("slug: " + english.json()["errors"]["slug"][0] + "; title: This field may not be blank.; "
                                        "body: This field is required.")
    assert api.get("/api/v1/pages/", {"page": "99"}).json()["detail"] == "Invalid page."


def test_each_field_error_has_its_code_beside_its_message(api: APIClient) -> None:
    body = api.get("/api/v1/sources/", {"year": "abc", "kind": "zzz"}).json()

    assert set(body["errors"]) == set(body["codes"]) == {"year", "kind"}
    assert body["codes"] == {"year": ["invalid"], "kind": ["invalid_choice"]}
    assert body["code"] == body["codes"][next(iter(body["errors"]))][0]
    assert api.get("/api/v1/sources/no-such-work/").json()["codes"] == {}


def test_a_body_breaking_a_fields_rule_gets_that_rules_code_as_drf_would_give_it(editor_api: APIClient) -> None:
    make_source(slug="coded-work", short_name="Coded")
    long_text = editor_api.post("/api/v1/classify/", {"text": "GRPO " * 5000}, format="json")
    long_title = editor_api.post("/api/v1/sources/", {"title": "T" * 501}, format="json")
    control_at_end = editor_api.post("/api/v1/sources/", {"title": "Title\x1f"}, format="json")
    no_such = editor_api.post("/api/v1/questions/", {"title": "Q?", "sources": ["coded\x01work"]}, format="json")
    not_a_list = editor_api.post("/api/v1/questions/", {"title": "Q?", "sources": "coded-work"}, format="json")

    assert long_text.json()["codes"] == {"text": ["max_length"]}
    assert long_title.json()["codes"] == {"title": ["max_length"]}
    assert control_at_end.json()["codes"] == {"title": ["invalid_characters"]}
    assert no_such.json()["codes"] == {"sources": ["does_not_exist"]}
    assert not_a_list.json()["codes"] == {"sources": ["not_a_list"]}
    # DRF's own codes for the same mistakes where it finds them itself
    assert editor_api.post("/api/v1/questions/", {"title": "Q?", "sources": ["no-such"]}, format="json").json()["codes"] == {
        "sources": ["does_not_exist"]}


@pytest.mark.parametrize("path", ["/api/v1/questions/", "/api/v1/classify/", "/api/v1/sources/"])
def test_a_body_that_is_json_null_is_a_400_said_in_the_readers_language(editor_api: APIClient, path: str) -> None:
    response = editor_api.post(path, b"null", content_type="application/json", HTTP_ACCEPT_LANGUAGE="zh-hans")

    assert response.status_code == 400 and _is_error(response.json(), "null")
    assert response.json()["detail"] == "请求正文是 null：请发送一个 JSON 对象。"
    assert not OpenQuestion.objects.exists() and not Source.objects.exists()


def test_a_field_the_endpoint_does_not_write_is_named_with_the_other_mistakes(editor_api: APIClient) -> None:
    response = editor_api.post("/api/v1/sources/", {"title": "T", "year": "20x5", "kind": "weird", "bogus": 1}, format="json")

    assert response.status_code == 400
    assert response.json()["codes"] == {"bogus": ["unknown_field"], "year": ["invalid"], "kind": ["invalid_choice"]}
    assert response.json()["code"] == "unknown_field"


def test_asking_anonymously_for_ones_own_questions_needs_credentials(api: APIClient, reader_api: APIClient) -> None:
    anonymous = api.get("/api/v1/questions/", {"assigned": "me"})

    assert anonymous.status_code == 401 and _is_error(anonymous.json(), "not_authenticated")
    assert anonymous["WWW-Authenticate"].startswith("Token")
    assert reader_api.get("/api/v1/questions/", {"assigned": "me"}).status_code == 200
    assert api.get("/api/v1/questions/", {"assigned": "nobody"}).status_code == 200


def test_dismissing_a_finding_the_report_has_not_is_404(editor_api: APIClient) -> None:
    response = editor_api.post("/api/v1/findings/dismiss/", {"kind": "rl_name_not_rl", "key": "no-such-work",
                                                              "reason": "Not a mistake."}, format="json")

    assert response.status_code == 404 and _is_error(response.json(), "not_found")
    assert list(response.json()["errors"]) == ["key"]


@pytest.mark.parametrize("query", ["q=%ff", "q=ok&kind=%c3", "%ff=1"])
def test_a_query_string_that_is_not_utf8_is_400(api: APIClient, query: str) -> None:
    response = api.get(f"/api/v1/search/?{query}")

    assert response.status_code == 400 and _is_error(response.json(), "invalid_encoding")
    assert all(codes == ["invalid_encoding"] for codes in response.json()["codes"].values()) and response.json()["codes"]
    assert api.get("/api/v1/search/", {"q": "强化学习"}).status_code == 200


def test_credentials_of_a_scheme_the_api_does_not_read_are_401(settings: Settings, api: APIClient) -> None:
    response = api.get("/api/v1/sources/", HTTP_AUTHORIZATION="Basic YWxpY2U6YWxpY2UtcGFzcw==")

    assert response.status_code == 401 and _is_error(response.json(), "authentication_failed")
    assert response["WWW-Authenticate"].startswith("Token") and "Basic" in response.json()["detail"]
    # a site behind a proxy asking for Basic authentication lets the browsers' header through as no credentials
    settings.API_IGNORED_AUTH_SCHEMES = frozenset({"basic"})
    assert api.get("/api/v1/sources/", HTTP_AUTHORIZATION="Basic YWxpY2U6YWxpY2UtcGFzcw==").status_code == 200


@pytest.mark.parametrize("address", [
    "/api/v1/pages/?foo=1", "/api/v1/pages/?ordering=nope,nada", "/api/v1/pages/?format=xml",
    "/api/v1/graph/contrast/?works=nope,nada",
])
def test_a_list_in_an_error_is_written_as_the_readers_language_writes_lists(api: APIClient, address: str) -> None:
    chinese = api.get(address, HTTP_ACCEPT_LANGUAGE="zh-hans").json()["detail"]
    english = api.get(address, HTTP_ACCEPT_LANGUAGE="en").json()["detail"]

    assert "、" in chinese and ", " not in chinese, chinese
    assert ", " in english and "、" not in english, english
