"""Log lines an operator can follow: each request's id (the proxy's X-Request-ID or a new one) in its response and its
log records, JSON lines when asked for, and gunicorn's access log naming the client behind the trusted proxies."""

from __future__ import annotations

import io
import json
import logging
import os
import re
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.db import connection
from django.test import Client, RequestFactory
from pytest_django import Settings
from rest_framework.throttling import BaseThrottle

from config.access_log import client_address
from config.logs import JsonFormatter, RequestIdFilter

ROOT = Path(__file__).resolve().parents[2]
NEW_ID = re.compile(r"[0-9a-f]{32}")


@pytest.mark.django_db
def test_a_response_carries_the_request_id_the_proxy_sent_or_a_new_one() -> None:
    client = Client()
    assert client.get("/health/", HTTP_X_REQUEST_ID="f3b1c2d4-probe")["X-Request-ID"] == "f3b1c2d4-probe"
    made = [client.get("/api/v1/sources/")["X-Request-ID"] for _ in range(2)]
    assert all(NEW_ID.fullmatch(made_id) for made_id in made) and made[0] != made[1]
    # what could break a log line, or fill it, is not taken up
    for unfit in ("two words", "x" * 129, 'quote"d'):
        assert NEW_ID.fullmatch(client.get("/health/", HTTP_X_REQUEST_ID=unfit)["X-Request-ID"])


@pytest.mark.django_db
def test_a_requests_log_records_name_its_id_as_json_lines() -> None:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter())
    logging.getLogger().addHandler(handler)
    try:
        Client().get("/api/v1/sources/999999/", HTTP_X_REQUEST_ID="req-42")
        logging.getLogger("wiki").warning("outside any request: %s", "中文")
    finally:
        logging.getLogger().removeHandler(handler)

    during, outside = [json.loads(line) for line in out.getvalue().splitlines()]
    assert during["logger"] == "django.request" and during["level"] == "WARNING"
    assert during["request_id"] == "req-42" and during["status"] == 404
    assert during["message"] == "Not Found: /api/v1/sources/999999/"
    assert outside["request_id"] == "-" and outside["message"] == "outside any request: 中文"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", outside["time"])


@pytest.mark.parametrize("proxies", [0, 1, 2])
@pytest.mark.parametrize(
    "forwarded", [None, "203.0.113.7", "198.51.100.1, 203.0.113.7", "1.1.1.1,2.2.2.2, 203.0.113.7"]
)
def test_the_access_log_names_the_client_the_throttles_count(
    settings: Settings, proxies: int, forwarded: str | None
) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": proxies}
    meta: dict[str, Any] = {"REMOTE_ADDR": "10.0.0.2"} | ({"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {})
    request = RequestFactory().get("/", **meta)
    assert client_address(request.META, proxies) == BaseThrottle().get_ident(request)  # type: ignore[arg-type]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.django_db
def test_gunicorn_writes_json_lines_with_the_forwarded_client_and_the_request_id() -> None:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = db["HOST"] or db.get("OPTIONS", {}).get("host") or "127.0.0.1"
    port = _free_port()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
        "DATABASE_URL": f"postgres://{db['USER']}{password}@{quote(host, safe='')}:{db['PORT'] or 5432}/{db['NAME']}",
        "REDIS_URL": "",
        "PORT": str(port),
        "WEB_CONCURRENCY": "1",
        "WEB_THREADS": "1",
        "WEB_ACCESS_LOG": "-",
        "WIKI_LOG_FORMAT": "json",
        "WIKI_TRUSTED_PROXIES": "1",
        "LOG_LEVEL": "info",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),  # an application server refuses the development key
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.conf.py", "config.wsgi"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/health/?probe=1",
            headers={"X-Forwarded-For": "198.51.100.1, 203.0.113.7", "X-Request-ID": "lb-probe-1"},
        )
        for _ in range(120):
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    assert response.headers["X-Request-ID"] == "lb-probe-1"
                    break
            except OSError:
                assert server.poll() is None, server.communicate()[1]
                time.sleep(0.25)
        else:
            pytest.fail("gunicorn did not answer")
    finally:
        server.terminate()
        out, err = server.communicate(timeout=30)

    [access] = [json.loads(line) for line in out.splitlines() if line.strip()]
    assert {k: access[k] for k in ("logger", "client", "method", "path", "query", "status", "request_id")} == {
        "logger": "gunicorn.access",
        "client": "203.0.113.7",
        "method": "GET",
        "path": "/health/",
        "query": "probe=1",
        "status": 200,
        "request_id": "lb-probe-1",
    }
    errors = [json.loads(line) for line in err.splitlines() if line.strip()]  # every line JSON, gunicorn's own too
    assert any(line["logger"] == "gunicorn.error" and "Booting worker" in line["message"] for line in errors)
