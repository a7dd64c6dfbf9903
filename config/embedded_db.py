"""The embedded PostgreSQL used when DATABASE_URL is not set.

pgserver runs a real PostgreSQL 16 from a wheel, so a fresh machine needs no system install. Its
data lives under ``var/pgdata``; the server is left running between commands and reused by the
next process (``python -m config.embedded_db --stop`` stops it). Starting it is an explicit step of the entry points (``manage.py``, ``config/wsgi.py``,
``make test`` through ``python -m config.embedded_db``); importing the settings never starts it.
"""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path

from config.env import env_str

DATABASE_NAME = "wiki"
BASE_DIR = Path(__file__).resolve().parent.parent


def var_dir() -> Path:
    """Where the embedded PostgreSQL and collected static files live (``WIKI_VAR_DIR``, ``var/`` by default)."""
    return Path(env_str("WIKI_VAR_DIR", str(BASE_DIR / "var")))


def embedded_database_url(data_dir: Path) -> str:
    """Starts the server on ``data_dir`` unless it runs already, creates the wiki's database, returns its URL."""
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset, as on most servers.
        warnings.simplefilter("ignore")
        from pgserver.postgres_server import get_server

        data_dir.mkdir(parents=True, exist_ok=True)
        _forget_a_server_that_is_gone(data_dir)
        server = get_server(data_dir, cleanup_mode=None)
    found = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE_NAME}'")
    if "(1 row)" not in found:
        server.psql(f"CREATE DATABASE {DATABASE_NAME}")
    return server.get_uri(DATABASE_NAME)


def use_embedded_database_unless_configured() -> None:
    """Without DATABASE_URL, starts the embedded PostgreSQL and sets DATABASE_URL to it for this process and its children."""
    if not env_str("DATABASE_URL"):
        os.environ["DATABASE_URL"] = embedded_database_url(var_dir() / "pgdata")


def _server_process_runs(data_dir: Path) -> bool:
    """Whether the process ``postmaster.pid`` names is a PostgreSQL server.

    A server that ended without stopping (killed, or the machine restarted) leaves its ``postmaster.pid`` behind, and
    the process number it names may since have gone to another program, which must not be taken for the server nor
    sent its stop signal.
    """
    try:
        pid = int((data_dir / "postmaster.pid").read_text().split(maxsplit=1)[0])
    except (OSError, ValueError, IndexError):
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    try:
        return (Path("/proc") / str(pid) / "comm").read_text().strip() == "postgres"
    except FileNotFoundError:
        # No /proc (macOS): the process exists, which is all that can be known.
        return not Path("/proc/self").exists()


def _forget_a_server_that_is_gone(data_dir: Path) -> None:
    """Removes the ``postmaster.pid`` of a server no longer running, which would otherwise be taken for a running one
    whenever its process number has gone to another program (as after a restart of the machine)."""
    if (data_dir / "postmaster.pid").exists() and not _server_process_runs(data_dir):
        (data_dir / "postmaster.pid").unlink(missing_ok=True)


def stop_embedded_database(data_dir: Path) -> bool:
    """Stops the server on ``data_dir`` if one runs there (it is otherwise left running); True if it did, False if
    none runs, its ``postmaster.pid`` left behind by one that ended without stopping included."""
    if not _server_process_runs(data_dir):
        return False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pgserver import pg_ctl  # type: ignore[attr-defined]

    # pgserver runs the server as its own user "pgserver" when started by root, as pg_ctl must be run.
    pg_ctl(["-w", "-m", "fast", "stop"], pgdata=data_dir, user="pgserver" if os.geteuid() == 0 else None)
    return True


if __name__ == "__main__":
    if sys.argv[1:] == ["--stop"]:
        # `python -m config.embedded_db --stop`: stops the server this checkout (or WIKI_VAR_DIR) started.
        stopped = stop_embedded_database(var_dir() / "pgdata")
        print("stopped" if stopped else "not running")
    elif sys.argv[1:]:
        sys.exit("usage: python -m config.embedded_db [--stop]")
    else:
        # `DATABASE_URL=$(python -m config.embedded_db)`: for commands that do not start through manage.py, like pytest.
        use_embedded_database_unless_configured()
        print(os.environ["DATABASE_URL"])
