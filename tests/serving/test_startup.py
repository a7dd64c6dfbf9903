"""Servers starting at once on one database: `manage.py prepare_wiki` (what `make run` and `make serve` run first) takes
turns, so neither races the other's migrations or seed load."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest
from django.db import DEFAULT_DB_ALIAS, connection, connections

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def empty_database(db: None) -> Iterator[str]:
    """A new, empty database on the test server, as a URL; dropped afterwards."""
    settings = connection.settings_dict
    name = f"{settings['NAME']}_start_{uuid.uuid4().hex[:8]}"
    admin = connections.create_connection(DEFAULT_DB_ALIAS)  # CREATE DATABASE runs outside the test's transaction
    try:
        with admin.cursor() as cursor:
            cursor.execute(f'CREATE DATABASE "{name}"')
        password = f":{settings['PASSWORD']}" if settings.get("PASSWORD") else ""
        host = settings["HOST"] or settings.get("OPTIONS", {}).get("host") or "127.0.0.1"
        yield f"postgres://{settings['USER']}{password}@{quote(host, safe='')}:{settings['PORT'] or 5432}/{name}"
    finally:
        with admin.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def test_two_servers_starting_at_once_on_an_empty_database_both_succeed(empty_database: str) -> None:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "WIKI_STATEMENT"))},
        "DATABASE_URL": empty_database,
        "REDIS_URL": "",
    }
    starts = [
        subprocess.Popen(
            [sys.executable, "manage.py", "prepare_wiki"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outcomes = [start.communicate(timeout=600) for start in starts]

    assert [start.returncode for start in starts] == [0, 0], [err for _, err in outcomes]
    with psycopg.connect(empty_database) as database:
        assert database.execute("SELECT count(*) FROM wiki_page WHERE slug = 'agentic-rl'").fetchone() == (1,)
        assert database.execute(
            "SELECT count(*) FROM wiki_revision r JOIN wiki_page p ON p.id = r.page_id WHERE p.slug = 'agentic-rl'"
        ).fetchone() == (1,)
