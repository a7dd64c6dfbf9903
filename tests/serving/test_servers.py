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
from pathlib import Path
from urllib.parse import quote

import pytest
import redis
from django.db import connection

from tests.factories import make_api_token, make_editor, make_page

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/13")
ANON_RATE = 12


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


@pytest.fixture
def servers(transactional_db: None) -> Iterator[list[str]]:
    prefix = f"test-servers-{uuid.uuid4().hex}"  # keys of this test's own, whatever else shares the database
    env = {**os.environ, "DATABASE_URL": _database_url(), "REDIS_URL": REDIS_URL, "CACHE_KEY_PREFIX": prefix,
           "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
           "API_ANON_RATE": f"{ANON_RATE}/minute", "WEB_CONCURRENCY": "2", "WEB_THREADS": "2", "WEB_ACCESS_LOG": "",
           "DJANGO_SETTINGS_MODULE": "config.settings"}
    started = []
    for _ in range(2):
        port = _free_port()
        process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.conf.py", "config.wsgi"],
                                   cwd=ROOT, env={**env, "PORT": str(port)}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        started.append((process, f"http://127.0.0.1:{port}"))
    try:
        for process, base in started:
            for _ in range(120):
                if process.poll() is not None:
                    pytest.fail(f"gunicorn stopped: {process.stderr.read().decode() if process.stderr else ''}")
                try:
                    if _get(base + "/health/")[0] == 200:
                        break
                except OSError:
                    time.sleep(0.25)
            else:
                pytest.fail("gunicorn did not answer /health/")
        yield [base for _, base in started]
    finally:
        for process, _ in started:
            process.terminate()
            process.wait(timeout=30)
        client = redis.Redis.from_url(REDIS_URL)
        for key in client.scan_iter(f"{prefix}:*"):
            client.delete(key)


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
