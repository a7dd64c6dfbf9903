"""With read replicas: reads go to a replica, writes to the primary, and an editor reads their own writes."""

from __future__ import annotations

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory
from pytest_django import Settings

from config.routers import PIN_COOKIE, PrimaryAfterWriteMiddleware, ReplicaRouter, primary_reads
from tests.factories import make_source
from wiki import suggestions
from wiki.models import Page, StoredSuggestion


@pytest.fixture
def with_replica(settings: Settings) -> None:
    settings.DATABASE_REPLICAS = ["replica1"]
    settings.DATABASE_PRIMARY_PIN_SECONDS = 10


def _route_during(request: HttpRequest) -> tuple[str, HttpResponse]:
    seen = {}

    def view(req: HttpRequest) -> HttpResponse:
        seen["read"] = ReplicaRouter().db_for_read(Page)
        return HttpResponse("ok")

    response = PrimaryAfterWriteMiddleware(view)(request)
    return seen["read"], response


def test_without_replicas_everything_reads_the_primary() -> None:
    assert ReplicaRouter().db_for_read(Page) == "default"


def test_reads_go_to_a_replica_and_writes_to_the_primary(with_replica: None) -> None:
    read, response = _route_during(RequestFactory().get("/wiki/agentic-rl/"))
    assert read == "replica1"
    assert ReplicaRouter().db_for_write(Page) == "default"
    assert PIN_COOKIE not in response.cookies


def test_a_write_and_the_same_browsers_next_reads_use_the_primary(with_replica: None) -> None:
    read, response = _route_during(RequestFactory().post("/wiki/agentic-rl/edit/"))
    assert read == "default"
    assert response.cookies[PIN_COOKIE]["max-age"] == 10

    next_read, _ = _route_during(RequestFactory(headers={"Cookie": f"{PIN_COOKIE}=1"}).get("/wiki/agentic-rl/"))
    assert next_read == "default"
    assert ReplicaRouter().db_for_read(Page) == "replica1"  # the pin ends with the request



def test_primary_reads_pin_reads_to_the_primary_for_as_long_as_they_last(with_replica: None) -> None:
    with primary_reads():
        assert ReplicaRouter().db_for_read(Page) == "default"
    assert ReplicaRouter().db_for_read(Page) == "replica1"


@pytest.mark.django_db
def test_a_refresh_of_stored_suggestions_reads_the_primary(settings: Settings) -> None:
    """It forgets the marks of the works it read: a replica behind the primary would have them forgotten unread."""
    make_source(short_name="Replicated")
    settings.DATABASE_REPLICAS = ["replica1"]  # no such database: a read sent there fails
    settings.DATABASE_ROUTERS = ["config.routers.ReplicaRouter"]
    assert suggestions.suggestions_refresh()
    with primary_reads():
        assert StoredSuggestion.objects.filter(source__short_name="Replicated").exists()
