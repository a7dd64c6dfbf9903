"""Log lines: a request id on every request, and JSON lines when ``WIKI_LOG_FORMAT=json`` (gunicorn's own lines in
``config/access_log.py``).

The request id is the one the proxy sent in ``X-Request-ID`` (nginx: ``proxy_set_header X-Request-ID $request_id;``),
else a new one; the response carries it back, the access log line and every log record of the request name it.
"""

from __future__ import annotations

import json
import logging
import re
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from django.core.signals import request_finished
from django.http import HttpRequest, HttpResponse

REQUEST_ID_HEADER = "X-Request-ID"
# What an id from outside may hold: a UUID, nginx's $request_id, a trace id; nothing that could break a log line.
_REQUEST_ID = re.compile(r"[A-Za-z0-9._:@+=/-]{1,128}")
request_id: ContextVar[str] = ContextVar("request_id", default="-")


def _request_done(**kwargs: Any) -> None:
    request_id.set("-")


class RequestIdMiddleware:
    """Gives the request its id (the incoming ``X-Request-ID`` when it is one, else a new one) for the log records
    made until its response is sent, and sends it back in the response's ``X-Request-ID``. The id stays until
    ``request_finished``: Django logs a 4xx answer (``django.request``) after every middleware has returned."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        request_finished.connect(_request_done, dispatch_uid="config.logs.request_done")

    def __call__(self, request: HttpRequest) -> HttpResponse:
        incoming = request.headers.get(REQUEST_ID_HEADER, "")
        identifier = incoming if _REQUEST_ID.fullmatch(incoming) else uuid.uuid4().hex
        request_id.set(identifier)
        response = self.get_response(request)
        response[REQUEST_ID_HEADER] = identifier
        return response


class RequestIdFilter(logging.Filter):
    """Gives each record the id of the request it was made for (``-`` outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


class OneLineWarning(logging.Filter):
    """Turns a record into one WARNING line without its traceback: for a client's mistake that Django logs as an
    ERROR with one, such as a Host no ``ALLOWED_HOSTS`` lists (answered 400)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not logging.getLogger(record.name).isEnabledFor(logging.WARNING):
            return False
        record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True


def iso_time(created: float) -> str:
    return datetime.fromtimestamp(created, tz=UTC).isoformat(timespec="milliseconds")


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC), level, logger, message, request id, and the traceback when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": iso_time(record.created),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", "-"),
        }
        status = getattr(record, "status_code", None)
        if isinstance(status, int):
            entry["status"] = status
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)
