"""A server on a database not migrated as far as the code (an upgrade not migrated yet, a ``migrate wiki 0050``)
answers 503 naming the command to run, a page for readers and JSON for the API, and its health check says so; it
serves again once the database is migrated, and asks the database nothing more after that."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder
from django.test import Client
from django.test.utils import CaptureQueriesContext

from wiki import schema_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def behind(monkeypatch: pytest.MonkeyPatch) -> str:
    """The wiki's last migration unapplied, as the server's next request finds it; the name of that migration."""
    last = MigrationRecorder.Migration.objects.filter(app="wiki").latest("id")
    last.delete()
    # Found migrated when the tests started: asked again now, and found so again after this test.
    monkeypatch.setattr(schema_state._Found, "migrated", False)
    return f"wiki {last.name}"


def test_a_page_on_a_database_behind_the_code_is_a_503_naming_the_command(behind: str, client: Client) -> None:
    response = client.get("/", headers={"accept-language": "en"})

    assert response.status_code == 503
    html = response.content.decode()
    assert f"1 migration to apply, first {behind}" in html
    assert "run <code>manage.py prepare_wiki</code>" in html
    assert response["Retry-After"] == "30" and "no-cache" in response["Cache-Control"]
    chinese = client.get("/wiki/anything/", headers={"accept-language": "zh-CN"}).content.decode()
    assert "其数据库尚未迁移到与代码一致" in chinese and "manage.py prepare_wiki" in chinese


def test_the_api_on_a_database_behind_the_code_answers_503_json(behind: str, client: Client) -> None:
    response = client.get("/api/v1/pages/")

    assert response.status_code == 503
    assert response.json()["code"] == "database_not_migrated"
    assert "run “manage.py prepare_wiki”" in response.json()["detail"]


def test_the_health_check_reports_a_database_behind_the_code(behind: str, client: Client) -> None:
    response = client.get("/health/")

    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "database": "ok", "cache": "ok",
                               "migrations": {"unapplied": 1, "first": behind, "run": "manage.py prepare_wiki"}}


def test_the_server_serves_again_once_migrated_and_then_asks_nothing_more(behind: str, client: Client) -> None:
    assert client.get("/").status_code == 503
    app, name = behind.split()
    MigrationRecorder.Migration.objects.create(app=app, name=name)

    assert client.get("/").status_code == 200
    with CaptureQueriesContext(connection) as asked:
        client.get("/health/")
    assert not any("django_migrations" in query["sql"] for query in asked.captured_queries)
    assert client.get("/health/").json() == {"status": "ok", "database": "ok", "cache": "ok"}
