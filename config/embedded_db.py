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
        server = get_server(data_dir, cleanup_mode=None)
    found = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE_NAME}'")
    if "(1 row)" not in found:
        server.psql(f"CREATE DATABASE {DATABASE_NAME}")
    return server.get_uri(DATABASE_NAME)


def use_embedded_database_unless_configured() -> None:
    """Without DATABASE_URL, starts the embedded PostgreSQL and sets DATABASE_URL to it for this process and its children."""
    if not env_str("DATABASE_URL"):
        os.environ["DATABASE_URL"] = embedded_database_url(var_dir() / "pgdata")


def stop_embedded_database(data_dir: Path) -> bool:
    """Stops the server on ``data_dir`` if one runs there (it is otherwise left running); True if it did."""
    if not (data_dir / "postmaster.pid").exists():
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
    else:
        # `DATABASE_URL=$(python -m config.embedded_db)`: for commands that do not start through manage.py, like pytest.
        use_embedded_database_unless_configured()
        print(os.environ["DATABASE_URL"])
