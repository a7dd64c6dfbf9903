"""The embedded PostgreSQL used when DATABASE_URL is not set.

pgserver runs a real PostgreSQL 16 from a wheel, so a fresh machine needs no
system install. Its data lives under ``var/pgdata``; the server is left
running between commands and reused by the next process.
"""

from __future__ import annotations

import warnings
from pathlib import Path

DATABASE_NAME = "wiki"


def embedded_database_url(data_dir: Path) -> str:
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset, as on most servers.
        warnings.simplefilter("ignore")
        import pgserver

        data_dir.mkdir(parents=True, exist_ok=True)
        server = pgserver.get_server(data_dir, cleanup_mode=None)
    found = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE_NAME}'")
    if "(1 row)" not in found:
        server.psql(f"CREATE DATABASE {DATABASE_NAME}")
    return server.get_uri(DATABASE_NAME)
