"""The tests run in a database of their own, whichever tests a run selects: never in the one DATABASE_URL names."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

ROOT = Path(__file__).resolve().parent.parent
# A test that reaches the database through the seed wiki alone (its fixtures name no database).
SEED_ONLY = "tests/wiki/test_references_export.py::test_the_source_list_offers_the_export_of_what_it_shows"


@pytest.fixture
def named_database() -> Iterator[str]:
    """The address of an empty database of its own on the tests' server, as a developer's DATABASE_URL names their
    wiki's; dropped after."""
    server = urlsplit(os.environ["DATABASE_URL"])
    name = f"wiki_named_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(urlunsplit(server._replace(path="/postgres")), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    yield urlunsplit(server._replace(path=f"/{name}"))
    with psycopg.connect(urlunsplit(server._replace(path="/postgres")), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_seed_test_run_alone_runs_in_a_test_database_and_leaves_the_named_one_empty(
        named_database: str) -> None:
    url = named_database
    env = {**os.environ, "DATABASE_URL": url}
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", SEED_ONLY],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)

    assert result.returncode == 0, result.stdout[-3000:]
    with psycopg.connect(url) as named:
        tables = named.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()
    assert tables == (0,)
