"""What the benchmarks that run the wiki under gunicorn share: a free port, and Django set up as the server will be."""

from __future__ import annotations

import os
import secrets
import socket


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def setup_django(redis_url: str) -> None:
    """Django in this process with the benchmark's settings and cache (``''``: the database cache), as the server runs."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "benchmarks.bench_settings"
    os.environ["REDIS_URL"] = redis_url
    # gunicorn with DEBUG off needs a key of its own; it is shared with this process, which writes to the wiki and
    # logs editors in.
    os.environ.setdefault("DJANGO_SECRET_KEY", secrets.token_urlsafe(50))
    import django

    django.setup()
