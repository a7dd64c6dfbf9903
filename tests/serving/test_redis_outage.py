"""Redis going away: the wiki serves on from PostgreSQL, sessions included, its health check says so without taking
the server out of a load balancer, and when Redis answers again no page cached before the outage is served, though
writes made meanwhile could not move the version in Redis."""

from __future__ import annotations

import logging
import os

import pytest
from django.core.cache import caches
from django.test import Client, override_settings

from tests.factories import make_editor
from tests.serving.redis_proxy import RedisProxy
from wiki.caching.backends import RedisCache
from wiki.services.pages import page_save

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/12")


def test_an_unreachable_redis_is_a_miss_for_every_read_and_drops_every_write(
    proxy: RedisProxy, prefix: str, caplog: pytest.LogCaptureFixture
) -> None:
    backend = RedisCache(proxy.url, {"KEY_PREFIX": prefix, "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2}})
    backend.set("kept", 1)
    recovered: list[int] = []
    from wiki.caching import backends

    backends.on_recovery(lambda: recovered.append(1))
    try:
        proxy.cut()
        with caplog.at_level(logging.WARNING, logger="wiki.caching.backends"):
            assert backend.get("kept", "missed") == "missed"
            assert backend.get_many(["kept"]) == {}
            backend.set("other", 2)
            assert backend.add("new", 3) is False
            assert backend.count("hits", 30) == 1
            assert not backend.reachable
        assert [r.getMessage().split(" (")[0] for r in caplog.records] == ["Redis cannot be reached"]

        proxy.start()
        backend.availability.retry_now()  # the next call tries at once
        assert backend.get("kept") == 1  # what Redis held is there again
        assert backend.reachable and recovered == [1]
        assert backend.get("kept") == 1 and recovered == [1]  # once per outage
    finally:
        backends._RECOVERY.pop()


@pytest.mark.django_db
def test_pages_are_served_while_redis_is_away_and_none_from_before_after_it_comes_back(proxy: RedisProxy, prefix: str) -> None:
    cache = {"default": {"BACKEND": "wiki.caching.backends.RedisCache", "LOCATION": proxy.url, "KEY_PREFIX": prefix,
                         "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2}}}
    editor = make_editor()
    page = page_save(slug="outage", title="Outage", body="第一版。", user=editor).revision.page
    with override_settings(CACHES=cache, SESSION_ENGINE="django.contrib.sessions.backends.cached_db"):
        reader, signed_in = Client(), Client()
        signed_in.force_login(editor)
        assert "第一版" in reader.get("/wiki/outage/").content.decode()  # cached under the version Redis holds

        proxy.cut()
        edited = page_save(slug="outage", title="Outage", body="第二版。", user=editor, base_revision=1)
        assert edited.revision.page_id == page.pk
        during = reader.get("/wiki/outage/")
        assert during.status_code == 200 and "第二版" in during.content.decode()
        assert signed_in.get("/wiki/outage/").status_code == 200  # the session is read from its table
        # The server still serves, so the load balancer keeps it; monitoring asks strictly and learns of the outage.
        health = Client().get("/health/")
        assert health.status_code == 200
        assert health.json() == {"status": "degraded", "database": "ok", "cache": "degraded"}
        assert Client().get("/health/?strict=1").status_code == 503

        proxy.start()
        backend = caches["default"]
        assert isinstance(backend, RedisCache)
        backend.availability.retry_now()
        after = reader.get("/wiki/outage/")
        assert after.status_code == 200 and "第二版" in after.content.decode()
        assert Client().get("/health/?strict=1").json() == {"status": "ok", "database": "ok", "cache": "ok"}
