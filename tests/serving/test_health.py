"""The health check a load balancer routes on: up while the primary answers, whatever Host the probe names; strict for
monitoring; and a request for a host the wiki does not serve logged in one line."""

from __future__ import annotations

import logging

import pytest
from django.test import Client

from wiki import health


@pytest.mark.django_db
def test_a_probe_at_the_servers_own_address_is_answered_whatever_the_allowed_hosts() -> None:
    response = Client().get("/health/", HTTP_HOST="10.0.0.5")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "ok"}
    assert Client().get("/health/?strict=1", HTTP_HOST="10.0.0.5:8000").status_code == 200


@pytest.mark.django_db
def test_strict_asks_for_every_service_and_strict_0_does_not(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(health, "_cache", lambda: health.DEGRADED)
    assert Client().get("/health/").status_code == 200
    assert Client().get("/health/?strict=0").status_code == 200
    for strict in ("1", "true", ""):
        response = Client().get(f"/health/?strict={strict}")
        assert response.status_code == 503
        assert response.json() == {"status": "degraded", "database": "ok", "cache": "degraded"}


@pytest.mark.django_db
def test_without_the_primary_the_server_is_out_of_rotation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(health, "_primary", lambda: "error: OperationalError")
    response = Client().get("/health/")
    assert response.status_code == 503
    assert response.json()["status"] == "unavailable"


@pytest.mark.django_db
def test_a_host_the_wiki_does_not_serve_is_one_warning_line_without_a_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING):
        assert Client().get("/", HTTP_HOST="10.0.0.5").status_code == 400
    [record] = [r for r in caplog.records if r.name == "django.security.DisallowedHost"]
    assert record.levelname == "WARNING"
    assert record.exc_info is None
    assert record.getMessage().startswith("Invalid HTTP_HOST header: '10.0.0.5'.")
