"""With read replicas: reads go to a replica, writes to the primary, and an editor reads their own writes; a replica
that cannot be reached is left out for a few seconds, its reads going to the primary, and the health check says so."""

from __future__ import annotations

import copy
import logging
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connections
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory
from pytest_django import DjangoAssertNumQueries, Settings

from config import routers
from config.routers import PIN_COOKIE, PrimaryAfterWriteMiddleware, ReplicaRouter, primary_reads
from tests.factories import make_page, make_source
from wiki import suggestions
from wiki.caching import replicas, version_row, versions
from wiki.caching.version_row import VersionRow
from wiki.models import Page, StoredSuggestion
from wiki.services.pages import page_save_revision


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Replica:
    """A database alias ``replica1`` for the test's time: the test database itself (a replica that answers), or an
    address where nothing listens."""

    alias = "replica1"

    def __init__(self) -> None:
        self.connected = False
        self.answering = copy.deepcopy(connections["default"].settings_dict)
        self.dead = {**copy.deepcopy(self.answering), "HOST": "127.0.0.1", "PORT": str(_closed_port())}

    def use(self, settings_dict: dict[str, Any]) -> None:
        """Connects ``replica1`` to ``settings_dict`` in this thread, as a connection made by the test itself (which
        Django's test case lets through; an alias of the settings would have to be set up as a test database)."""
        self.close()
        connections[self.alias] = type(connections["default"])(settings_dict, self.alias)
        self.connected = True

    def close(self) -> None:
        if self.connected:
            connections[self.alias].close()
            del connections[self.alias]
            self.connected = False


@pytest.fixture
def replica(settings: Settings, db: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[Replica]:
    """A replica that has applied every version (how far one has is for the tests of ``wiki.caching.replicas``)."""
    monkeypatch.setattr(routers, "may_read", lambda alias: True)
    settings.DATABASE_REPLICAS = [Replica.alias]
    settings.DATABASE_ROUTERS = ["config.routers.ReplicaRouter"]
    settings.DATABASE_PRIMARY_PIN_SECONDS = 10
    settings.DATABASE_REPLICA_RETRY_SECONDS = 5
    replica = Replica()
    replica.use(replica.answering)
    yield replica
    replica.close()
    routers._unreachable.pop(Replica.alias, None)
@pytest.fixture
def with_replica(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """A replica that has applied every version there is."""
    settings.DATABASE_REPLICAS = ["replica1"]
    settings.DATABASE_PRIMARY_PIN_SECONDS = 10
    monkeypatch.setattr(replicas, "_applied", replicas._Applied())
    monkeypatch.setattr(version_row, "read", lambda using: VersionRow(2**62, 2**62))
    monkeypatch.setattr(routers, "replica_usable", lambda alias: True)  # one that answers


def _route_during(request: HttpRequest) -> tuple[str, HttpResponse]:
    seen = {}

    def view(req: HttpRequest) -> HttpResponse:
        seen["read"] = ReplicaRouter().db_for_read(Page)
        return HttpResponse("ok")

    response = PrimaryAfterWriteMiddleware(view)(request)
    return seen["read"], response


def test_without_replicas_everything_reads_the_primary() -> None:
    assert ReplicaRouter().db_for_read(Page) == "default"


def test_reads_go_to_a_replica_and_writes_to_the_primary(replica: Replica) -> None:
    read, response = _route_during(RequestFactory().get("/wiki/agentic-rl/"))
    assert read == "replica1"
    assert ReplicaRouter().db_for_write(Page) == "default"
    assert PIN_COOKIE not in response.cookies


def test_a_write_and_the_same_browsers_next_reads_use_the_primary(replica: Replica) -> None:
    read, response = _route_during(RequestFactory().post("/wiki/agentic-rl/edit/"))
    assert read == "default"
    assert response.cookies[PIN_COOKIE]["max-age"] == 10

    next_read, _ = _route_during(RequestFactory(headers={"Cookie": f"{PIN_COOKIE}=1"}).get("/wiki/agentic-rl/"))
    assert next_read == "default"
    assert ReplicaRouter().db_for_read(Page) == "replica1"  # the pin ends with the request


def test_primary_reads_pin_reads_to_the_primary_for_as_long_as_they_last(replica: Replica) -> None:
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


def test_a_replica_that_cannot_be_reached_is_left_out_for_a_few_seconds_then_tried_again(
    replica: Replica, caplog: pytest.LogCaptureFixture
) -> None:
    replica.use(replica.dead)
    with caplog.at_level(logging.WARNING, logger="config.routers"):
        assert ReplicaRouter().db_for_read(Page) == "default"
        replica.use(replica.answering)  # back already, but not asked again before the time is up
        assert ReplicaRouter().db_for_read(Page) == "default"
        assert connections[replica.alias].connection is None

        routers._unreachable[replica.alias] = 0.0  # the time is up
        assert ReplicaRouter().db_for_read(Page) == replica.alias
    assert [r.getMessage().split(" (")[0] for r in caplog.records] == [
        "Replica replica1 cannot be reached", "Replica replica1 answers again: reads go to it"]


def test_reads_fall_back_to_the_primary_while_the_only_replica_is_down(replica: Replica) -> None:
    replica.use(replica.dead)
    make_source(short_name="Primary only")
    reader = Client()

    sources = reader.get("/api/v1/sources/")
    assert sources.status_code == 200
    assert [row["short_name"] for row in sources.json()["results"]] == ["Primary only"]
    assert reader.get("/sources/?year=2024").status_code == 200


def test_the_health_check_reports_each_replica_and_fails_only_when_strict(replica: Replica) -> None:
    reader = Client()
    assert reader.get("/health/").json()["replicas"] == {"replica1": "ok"}

    replica.use(replica.dead)
    health = reader.get("/health/")
    assert health.status_code == 200
    assert health.json() == {"status": "degraded", "database": "ok", "cache": "ok", "replicas": {"replica1": "unreachable"}}
    assert reader.get("/health/?strict=1").status_code == 503
@pytest.fixture
def lagging_replica(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A replica whose version row is one move behind the primary's; the list counts how often it is read."""
    settings.DATABASE_REPLICAS = ["replica1"]  # no such database: a read sent there fails
    settings.DATABASE_ROUTERS = ["config.routers.ReplicaRouter"]
    monkeypatch.setattr(replicas, "_applied", replicas._Applied())
    real_read = version_row.read
    looked: list[int] = []

    def read(using: str = "default") -> VersionRow:
        if using == "default":
            return real_read()
        looked.append(1)
        primary = real_read()
        return VersionRow(primary.content - 1, primary.accounts)

    monkeypatch.setattr(version_row, "read", read)
    monkeypatch.setattr(replicas, "LOOK_AGAIN_SECONDS", 60)
    monkeypatch.setattr(routers, "replica_usable", lambda alias: True)  # it answers, only late
    return looked


@pytest.mark.django_db
def test_a_replica_behind_the_version_read_answers_none_of_the_reads(lagging_replica: list[int]) -> None:
    versions.bump()
    versions.current()  # what this thread keys its cache entries by
    assert [ReplicaRouter().db_for_read(Page) for _ in range(5)] == ["default"] * 5
    assert len(lagging_replica) == 1  # looked at once, then not again for a while


@pytest.mark.django_db
def test_a_replica_that_has_applied_the_version_read_answers_the_reads(settings: Settings,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    settings.DATABASE_REPLICAS = ["replica1"]
    monkeypatch.setattr(replicas, "_applied", replicas._Applied())
    versions.bump()
    keyed = VersionRow(versions.current().number, versions.accounts_version())
    looked: list[str] = []

    def read(using: str = "default") -> VersionRow:
        looked.append(using)
        return keyed

    monkeypatch.setattr(version_row, "read", read)
    monkeypatch.setattr(routers, "replica_usable", lambda alias: True)
    assert [ReplicaRouter().db_for_read(Page) for _ in range(5)] == ["replica1"] * 5
    assert looked == ["replica1"]  # once per version, whatever the number of reads


@pytest.mark.django_db
def test_a_page_read_after_an_edit_while_the_replica_lags_is_rendered_from_the_primary_and_cached_so(
        client: Client, lagging_replica: list[int], django_assert_num_queries: DjangoAssertNumQueries) -> None:
    page = make_page(slug="replicated", title="Replicated", body="The first sentence.")
    page_save_revision(slug="replicated", title="Replicated", body="The second sentence.", base_revision=1)
    versions.bump()  # committed: readers key by the edit's version, which the replica has not applied
    response = client.get(page.get_absolute_url())
    assert response.status_code == 200 and "The second sentence." in response.content.decode()
    with django_assert_num_queries(0):
        assert "The second sentence." in client.get(page.get_absolute_url()).content.decode()


@pytest.mark.django_db
def test_a_transaction_that_wrote_reads_the_primary(with_replica: None) -> None:
    make_page(slug="written", title="Written")
    assert ReplicaRouter().db_for_read(Page) == "default"
