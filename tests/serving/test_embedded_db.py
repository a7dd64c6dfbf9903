"""The embedded PostgreSQL of a machine with no DATABASE_URL: started on first use, reused, stopped on request."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from config.embedded_db import BASE_DIR, embedded_database_url, stop_embedded_database


@pytest.fixture
def var_dir() -> Iterator[Path]:
    """A directory of its own for the server's data, outside pytest's: pytest takes the group's and others' access
    from its own base directory whenever a worker starts, which pgserver's user, run by root, needs to go through."""
    path = Path(tempfile.mkdtemp(prefix="wiki-embedded-db-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


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


def test_the_command_starts_a_server_that_a_second_run_reuses_and_stop_ends(var_dir: Path) -> None:
    url = _run(var_dir)
    try:
        with psycopg.connect(url) as conn:
            assert conn.execute("SELECT current_database()").fetchone() == ("wiki",)
            started = conn.execute("SELECT pg_postmaster_start_time()").fetchone()
        # A second process finds the server running and hands out the same database.
        assert _run(var_dir) == url
        with psycopg.connect(url) as conn:
            assert conn.execute("SELECT pg_postmaster_start_time()").fetchone() == started
    finally:
        assert _run(var_dir, "--stop") == "stopped"
    assert not (var_dir / "pgdata" / "postmaster.pid").exists()
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(url, connect_timeout=3)
    # Stopping what is not running says so and changes nothing.
    assert _run(var_dir, "--stop") == "not running"


def test_stop_without_a_server_leaves_the_directory_alone(var_dir: Path) -> None:
    assert stop_embedded_database(var_dir / "pgdata") is False
    assert not (var_dir / "pgdata").exists()


def test_the_url_names_the_wiki_database_on_the_data_directorys_socket(var_dir: Path) -> None:
    url = embedded_database_url(var_dir / "pgdata")
    try:
        assert url.startswith("postgresql://postgres:@/wiki?host=")
        assert url.endswith(str(var_dir / "pgdata"))
    finally:
        assert stop_embedded_database(var_dir / "pgdata") is True


def _stopped_leaving_its_pid_file(data_dir: Path) -> list[str]:
    """Stops the server on ``data_dir`` and answers the lines of its ``postmaster.pid``, which a server killed with
    SIGKILL, or running when the machine restarted, leaves behind."""
    lines = (data_dir / "postmaster.pid").read_text().splitlines()
    assert stop_embedded_database(data_dir) is True
    return lines


def _left_behind(data_dir: Path, lines: list[str], pid: int) -> None:
    """That ``postmaster.pid`` back in place, naming ``pid``: a process that has since ended, or another program."""
    (data_dir / "postmaster.pid").write_text("\n".join([str(pid), *lines[1:]]) + "\n")


def test_a_server_that_ended_without_stopping_is_neither_stopped_nor_taken_for_running(var_dir: Path) -> None:
    data_dir = var_dir / "pgdata"
    embedded_database_url(data_dir)
    lines = _stopped_leaving_its_pid_file(data_dir)
    ended = subprocess.Popen(["true"])
    ended.wait()
    _left_behind(data_dir, lines, ended.pid)
    assert _run(var_dir, "--stop") == "not running"

    # After a restart of the machine, the number may belong to another program.
    other = subprocess.Popen(["sleep", "60"])
    try:
        _left_behind(data_dir, lines, other.pid)
        assert _run(var_dir, "--stop") == "not running"
        assert other.poll() is None
        # The next start starts a server, rather than handing out the address of one that is not there.
        url = _run(var_dir)
        try:
            with psycopg.connect(url, connect_timeout=10) as conn:
                assert conn.execute("SELECT current_database()").fetchone() == ("wiki",)
        finally:
            assert _run(var_dir, "--stop") == "stopped"
        assert other.poll() is None
    finally:
        other.kill()
        other.wait()


def test_an_unknown_argument_is_refused_without_starting_a_server(var_dir: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "config.embedded_db", "--stpo"],
        cwd=BASE_DIR, env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "WIKI_VAR_DIR": str(var_dir)},
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode != 0
    assert "usage: python -m config.embedded_db [--stop]" in done.stderr
    assert not (var_dir / "pgdata").exists()
