"""gunicorn's log lines (``config/gunicorn.conf.py``): the access log's ``%(h)s`` is the client, not the proxy in front,
when ``WIKI_TRUSTED_PROXIES`` says how many proxies there are; with ``WIKI_LOG_FORMAT=json`` its lines are JSON objects,
like the app's."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

from gunicorn.glogging import Logger  # type: ignore[import-untyped]

from config.env import env_int, env_str
from config.logs import JsonFormatter, iso_time


def client_address(environ: Mapping[str, Any], trusted_proxies: int) -> str:
    """The client's address as the wiki's throttles count it (DRF's ``get_ident`` with ``NUM_PROXIES``):
    ``REMOTE_ADDR``, or behind ``trusted_proxies`` proxies the X-Forwarded-For entry the outermost of them wrote."""
    remote = str(environ.get("REMOTE_ADDR") or "-")
    forwarded = environ.get("HTTP_X_FORWARDED_FOR")
    if not trusted_proxies or not forwarded:
        return remote
    entries = str(forwarded).split(",")
    return entries[-min(trusted_proxies, len(entries))].strip()


class GunicornLogger(Logger):  # type: ignore[misc]  # gunicorn has no type information
    """gunicorn's logger with the client's address in ``%(h)s`` behind ``WIKI_TRUSTED_PROXIES`` proxies, and its
    lines (access and error) as JSON when ``WIKI_LOG_FORMAT=json``."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        self.trusted_proxies = max(env_int("WIKI_TRUSTED_PROXIES", 0), 0)
        self.json = env_str("WIKI_LOG_FORMAT", "line") == "json"
        if self.json:
            for handler in self.error_log.handlers:
                handler.setFormatter(JsonFormatter())

    def atoms(self, resp: Any, req: Any, environ: Mapping[str, Any], request_time: Any) -> dict[str, Any]:
        atoms: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        atoms["h"] = client_address(environ, self.trusted_proxies)
        return atoms

    def access(self, resp: Any, req: Any, environ: Mapping[str, Any], request_time: Any) -> None:
        if not self.json:
            super().access(resp, req, environ, request_time)
            return
        if not self.access_log.hasHandlers():
            return
        atoms = self.atoms(resp, req, environ, request_time)
        status = str(atoms["s"])
        entry = {
            "time": iso_time(time.time()),
            "level": "INFO",
            "logger": "gunicorn.access",
            "client": atoms["h"],
            "method": atoms["m"],
            "path": atoms["U"],
            "query": atoms["q"] or "",
            "status": int(status) if status.isdigit() else status,
            "bytes": atoms["B"],
            "ms": atoms["M"],
            "request_id": atoms.get("{x-request-id}o", "-"),
            "user_agent": atoms["a"],
            "referer": atoms["f"],
        }
        self.access_log.info("%s", json.dumps(entry, ensure_ascii=False))
