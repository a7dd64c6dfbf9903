"""What each client may send: anonymous clients per address, logged-in ones per account, the schema apart; every
answer counted says what is left."""

from __future__ import annotations

import pytest
from pytest_django import Settings
from rest_framework.test import APIClient

from tests.factories import make_api_token
from wiki.roles import Account

pytestmark = pytest.mark.django_db


def _rates(settings: Settings, **rates: str) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


def test_every_answer_says_what_is_left_of_the_budget(settings: Settings, api: APIClient) -> None:
    _rates(settings, anon="3/minute")

    answers = [api.get("/api/v1/pages/") for _ in range(4)]

    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert [a["RateLimit-Remaining"] for a in answers] == ["2", "1", "0", "0"]
    assert {a["RateLimit-Limit"] for a in answers} == {"3"} and {a["RateLimit-Policy"] for a in answers} == {"3;w=60"}
    assert 0 < int(answers[0]["RateLimit-Reset"]) <= 60 and int(answers[3]["Retry-After"]) > 0
    # a 304 is counted too, and says so
    assert api.get("/api/v1/pages/", HTTP_IF_NONE_MATCH=answers[0]["ETag"])["RateLimit-Remaining"] == "0"


def test_a_token_has_a_budget_of_its_own_per_account(settings: Settings, api: APIClient, editor: Account) -> None:
    _rates(settings, anon="1/minute", user="3/minute")
    key = make_api_token(editor)
    script = APIClient(HTTP_AUTHORIZATION=f"Token {key}")

    assert [api.get("/api/v1/pages/").status_code for _ in range(2)] == [200, 429]
    answers = [script.get("/api/v1/pages/") for _ in range(4)]

    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[0]["RateLimit-Limit"] == "3" and answers[2]["RateLimit-Remaining"] == "0"
    # another token of the same account shares its budget
    assert APIClient(HTTP_AUTHORIZATION=f"Bearer {make_api_token(editor)}").get("/api/v1/pages/").status_code == 429


def test_fetching_the_schema_is_not_counted_against_reads(settings: Settings, api: APIClient) -> None:
    _rates(settings, anon="2/minute", schema="2/minute")

    schemas = [api.get("/api/schema/", {"format": "json"}).status_code for _ in range(3)]

    assert schemas == [200, 200, 429]
    assert [api.get("/api/v1/pages/").status_code for _ in range(3)] == [200, 200, 429]


def test_an_answer_no_limit_counted_has_no_budget_headers(settings: Settings, api: APIClient) -> None:
    _rates(settings)  # no rate set: nothing is counted

    response = api.get("/api/v1/pages/")

    assert response.status_code == 200 and "RateLimit-Limit" not in response


def test_a_429_reads_as_one_chinese_sentence_after_another_and_as_english(settings: Settings, api: APIClient) -> None:
    _rates(settings, anon="1/minute")
    api.get("/api/v1/pages/")

    chinese = api.get("/api/v1/pages/", HTTP_ACCEPT_LANGUAGE="zh-Hans").json()["detail"]
    english = api.get("/api/v1/pages/", HTTP_ACCEPT_LANGUAGE="en").json()["detail"]

    assert chinese.startswith("请求过于频繁，已被限流。请在 ") and chinese.endswith(" 秒后再试。")
    assert english.startswith("Request was throttled. Expected available in ")
