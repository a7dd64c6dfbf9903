"""The embedded PostgreSQL of a machine with no DATABASE_URL: started on first use, reused, stopped on request."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from config.embedded_db import BASE_DIR, embedded_database_url, stop_embedded_database


def _run(var_dir: Path, *args: str) -> str:
    """``python -m config.embedded_db`` in a fresh process, with its data under ``var_dir`` and no other setting.

    The system directories stay on the path: started by root, pgserver adds its own user with ``useradd``.
    """
    done = subprocess.run(
        [sys.executable, "-m", "config.embedded_db", *args],
        cwd=BASE_DIR, env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "WIKI_VAR_DIR": str(var_dir)},
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr}"
    return done.stdout.strip()


def test_the_command_starts_a_server_that_a_second_run_reuses_and_stop_ends(tmp_path: Path) -> None:
    url = _run(tmp_path)
    try:
        with psycopg.connect(url) as conn:
            assert conn.execute("SELECT current_database()").fetchone() == ("wiki",)
            started = conn.execute("SELECT pg_postmaster_start_time()").fetchone()
        # A second process finds the server running and hands out the same database.
        assert _run(tmp_path) == url
        with psycopg.connect(url) as conn:
            assert conn.execute("SELECT pg_postmaster_start_time()").fetchone() == started
    finally:
        assert _run(tmp_path, "--stop") == "stopped"
    assert not (tmp_path / "pgdata" / "postmaster.pid").exists()
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(url, connect_timeout=3)
    # Stopping what is not running says so and changes nothing.
    assert _run(tmp_path, "--stop") == "not running"


def test_stop_without_a_server_leaves_the_directory_alone(tmp_path: Path) -> None:
    assert stop_embedded_database(tmp_path / "pgdata") is False
    assert not (tmp_path / "pgdata").exists()


def test_the_url_names_the_wiki_database_on_the_data_directorys_socket(tmp_path: Path) -> None:
    url = embedded_database_url(tmp_path / "pgdata")
    try:
        assert url.startswith("postgresql://postgres:@/wiki?host=")
        assert url.endswith(str(tmp_path / "pgdata"))
    finally:
        assert stop_embedded_database(tmp_path / "pgdata") is True
