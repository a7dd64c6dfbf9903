from __future__ import annotations

from typing import Any

import pytest
from pytest_django import Settings
from rest_framework.test import APIClient

from tests.factories import ContrastWiki

pytestmark = pytest.mark.django_db


def _is_error(body: dict[str, Any], code: str) -> bool:
    return set(body) >= {"detail", "code", "errors"} and body["code"] == code and isinstance(body["detail"], str)


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


def test_anonymous_write_is_401_asking_for_a_token(api: APIClient) -> None:
    response = api.post("/api/v1/pages/", {"title": "X", "body": "Y"}, format="json")

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == 'Token'
    assert _is_error(response.json(), "not_authenticated")


@pytest.mark.parametrize("header", ["Token nope", "Token", "Token a b"])
def test_a_wrong_token_is_401_on_reads_and_writes(contrast_wiki: ContrastWiki, api: APIClient, header: str) -> None:
    api.credentials(HTTP_AUTHORIZATION=header)

    read = api.get("/api/v1/sources/")
    write = api.post("/api/v1/pages/", {"title": "X", "body": "Y"}, format="json")

    assert read.status_code == write.status_code == 401
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
