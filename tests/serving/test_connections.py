"""A kept database connection that PostgreSQL ended (a restart, a failover, pg_terminate_backend) is replaced before
the next request uses it, instead of failing that request."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any
from wsgiref.util import setup_testing_defaults

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.db import DEFAULT_DB_ALIAS, connection, connections

from tests.factories import make_source


def _get(handler: WSGIHandler, path: str) -> int:
    """A GET through the WSGI handler as a server calls it, request_started and request_finished included (the test
    client skips what they do to connections)."""
    environ = {"PATH_INFO": path, "REQUEST_METHOD": "GET", "HTTP_HOST": "testserver"}
    setup_testing_defaults(environ)
    status: list[str] = []

    def start_response(line: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable[[bytes], object]:
        status.append(line)
        return lambda data: None

    body: Iterable[bytes] = handler(environ, start_response)
    try:
        b"".join(body)
    finally:
        body.close()  # type: ignore[attr-defined]  # an HttpResponse, which request_finished follows
    return int(status[0].split()[0])


@pytest.mark.django_db(transaction=True)
def test_a_connection_postgresql_terminated_is_replaced_on_the_next_request() -> None:
    make_source(short_name="Kept")
    handler = WSGIHandler()
    assert _get(handler, "/api/v1/sources/") == 200
    assert connection.connection is not None  # kept for the next request (CONN_MAX_AGE)
    terminated = connection.connection.info.backend_pid

    other = connections.create_connection(DEFAULT_DB_ALIAS)
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s, 5000)", [terminated])
            assert cursor.fetchone() == (True,)
    finally:
        other.close()

    assert _get(handler, "/api/v1/claims/") == 200
    assert connection.connection.info.backend_pid != terminated
