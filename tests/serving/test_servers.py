"""Two production app servers (gunicorn, two workers each) on one PostgreSQL and one Redis, as deployed.

An edit saved through one server is what every worker of the other serves next, and the anonymous API
rate is counted across both, since the cache, the throttles and the sessions live in Redis.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest
import redis
from django.db import connection

from tests.factories import make_api_token, make_editor, make_page

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/13")
SPLIT_REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
ANON_RATE = 12
# Nothing listens there: a server that cannot reach Redis.
CLOSED_REDIS_URL = "redis://127.0.0.1:1/0"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _database_url() -> str:
    """The test database as a URL for the servers; the embedded PostgreSQL gives its socket directory as an
    option, which a URL carries percent-encoded in the host."""
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = db["HOST"] or db.get("OPTIONS", {}).get("host") or "127.0.0.1"
    return f"postgres://{db['USER']}{password}@{quote(host, safe='')}:{db['PORT'] or 5432}/{db['NAME']}"


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@contextmanager
def _running(redis_urls: list[str]) -> Iterator[list[str]]:
    """One gunicorn server (two workers of two threads) per Redis address given, on the test database."""
    prefix = f"test-servers-{uuid.uuid4().hex}"  # keys of this test's own, whatever else shares the database
    env = {**os.environ, "DATABASE_URL": _database_url(), "CACHE_KEY_PREFIX": prefix, "DJANGO_DEBUG": "0",
           "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
           "API_ANON_RATE": f"{ANON_RATE}/minute", "WEB_CONCURRENCY": "2", "WEB_THREADS": "2", "WEB_ACCESS_LOG": "",
           "DJANGO_SETTINGS_MODULE": "config.settings"}
    started = []
    for redis_url in redis_urls:
        port = _free_port()
        process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.conf.py", "config.wsgi"],
                                   cwd=ROOT, env={**env, "REDIS_URL": redis_url, "PORT": str(port)},
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        started.append((process, f"http://127.0.0.1:{port}", redis_url))
    try:
        for process, base, redis_url in started:
            for _ in range(120):
                if process.poll() is not None:
                    pytest.fail(f"gunicorn stopped: {process.stderr.read().decode() if process.stderr else ''}")
                try:
                    # A server without Redis answers 503 (its cache is away), but answers.
                    if _get(base + "/health/")[0] in ((200,) if redis_url != CLOSED_REDIS_URL else (200, 503)):
                        break
                except OSError:
                    time.sleep(0.25)
            else:
                pytest.fail("gunicorn did not answer /health/")
        yield [base for _, base, _ in started]
    finally:
        for process, _, _ in started:
            process.terminate()
            process.wait(timeout=30)
        for redis_url in set(redis_urls) - {CLOSED_REDIS_URL}:
            client = redis.Redis.from_url(redis_url)
            for key in client.scan_iter(f"{prefix}:*"):
                client.delete(key)


@pytest.fixture
def servers(transactional_db: None) -> Iterator[list[str]]:
    with _running([REDIS_URL, REDIS_URL]) as bases:
        yield bases


def test_an_edit_through_one_server_shows_at_once_on_every_worker_of_the_other(servers: list[str]) -> None:
    one, other = servers
    page = make_page(slug="shared", title="Shared", body="The first sentence.")
    token = make_api_token(make_editor("api-editor"))
    for base in servers:
        for _ in range(4):  # both workers of each server have it cached
            assert "The first sentence." in _get(base + page.get_absolute_url())[1]

    body = json.dumps({"body": "The second sentence.", "base_revision": 1}).encode()
    request = urllib.request.Request(f"{one}/api/v1/pages/shared/", data=body, method="PATCH",
                                     headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 200

    for _ in range(4):
        status, html = _get(other + page.get_absolute_url())
        assert status == 200
        assert "The second sentence." in html and "The first sentence." not in html


def _edit(base: str, token: str, slug: str, body: str, revision: int) -> None:
    data = json.dumps({"body": body, "base_revision": revision}).encode()
    request = urllib.request.Request(f"{base}/api/v1/pages/{slug}/", data=data, method="PATCH",
                                     headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 200


def test_an_edit_through_a_server_without_redis_shows_on_the_other_within_the_check_period(
        transactional_db: None) -> None:
    """One server cannot reach Redis: its edits move the version in PostgreSQL, which the other reads once a second."""
    page = make_page(slug="split", title="Split", body="The first sentence.")
    token = make_api_token(make_editor("split-editor"))
    with _running([SPLIT_REDIS_URL, CLOSED_REDIS_URL]) as (shared, alone):
        for _ in range(4):  # both workers have it cached, in Redis and in their memory
            assert "The first sentence." in _get(shared + page.get_absolute_url())[1]

        _edit(alone, token, "split", "The second sentence.", 1)
        edited_at = time.monotonic()
        assert "The second sentence." in _get(alone + page.get_absolute_url())[1]
        seen: list[float] = []
        while time.monotonic() - edited_at < 5 and len(seen) < 4:
            status, html = _get(shared + page.get_absolute_url())
            assert status == 200
            if "The second sentence." in html:
                seen.append(time.monotonic() - edited_at)
            else:
                assert not seen, "a worker went back to the old page"
                time.sleep(0.05)
        # WIKI_VERSION_CHECK_SECONDS (1), and the time a busy machine takes to answer.
        assert len(seen) == 4 and seen[0] < 2.5


def _at_the_start_of_a_window(seconds: int = 60, needed: float = 15.0) -> None:
    """Waits, when fewer than ``needed`` seconds are left of the throttle's current window, for the next: the rate
    is counted in fixed windows (wiki/api/throttles.py), and requests sent across a boundary are counted twice over."""
    left = seconds - time.time() % seconds
    if left < needed:
        time.sleep(left + 0.05)


def test_the_anonymous_api_rate_is_counted_across_servers(servers: list[str]) -> None:
    _at_the_start_of_a_window()
    statuses = [_get(servers[n % 2] + "/api/v1/sources/")[0] for n in range(ANON_RATE + 2)]
    assert statuses[:ANON_RATE] == [200] * ANON_RATE
    assert statuses[ANON_RATE:] == [429, 429]
