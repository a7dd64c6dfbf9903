"""Values kept in process memory for as long as Redis says they have not changed.

Every request reads the content version, and a round trip to Redis for it costs more than serving a
cached page from the worker's memory. Redis tells instead (server-assisted client-side caching): one
RESP3 connection per process asks for broadcast tracking of a key prefix, so every write to a key under
the prefix, from any server, pushes it a message. Redis sends the message before it next waits for
commands, so once an editor's request has made any further round trip (its commit, the bump after the
commit) and answered, the message is in every other worker's socket; a reader polls the socket
(without waiting) before it trusts its copy. The writing process drops its own copies at once. That poll is one
``poll(2)`` of the socket while nothing waits there: redis-py's own check sets and resets the socket's timeout and
raises in ``recv``, which, made for every copy a request reads, cost more than the copy spared.

A copy is trusted for ``max_age`` seconds at most, and not at all while the tracking connection is
down (the messages sent meanwhile are lost): then every read goes to Redis, as without tracking. A connection is
made by one thread at a time, within the cache's timeouts and outside the lock, so that a Redis that hangs (stopped,
its socket still accepting) holds no other thread up.
"""

from __future__ import annotations

import os
import select
import ssl
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import redis
from redis.connection import ConnectionPool

RETRY_SECONDS = 5.0


class Tracker:
    """Copies of values under ``prefix`` (full Redis key names), dropped when Redis says one changed."""

    def __init__(self, url: str, prefix: str, *, max_age: float = 5.0, connect_timeout: float | None = None,
                 timeout: float | None = None) -> None:
        self.url, self.prefix, self.max_age = url, prefix, max_age
        self._timeouts = {"socket_connect_timeout": connect_timeout, "socket_timeout": timeout}
        self._lock = threading.Lock()
        self._pid = 0
        self._connection: Any = None
        # Whether the socket has bytes waiting, asked of the kernel; None when that cannot tell (an encrypted socket
        # may hold decrypted bytes of its own), or until redis-py's buffer is known to be empty.
        self._poller: select.poll | None = None
        self._generation = 0  # moved by every message: a read that started before one is not kept
        self._copies: dict[tuple[str, ...], tuple[float, Any]] = {}
        self._retry_at = 0.0  # after a failed connection, when to try again
        self._connecting = False

    def get(self, keys: Sequence[str], read: Callable[[], Any]) -> Any:
        """The value of ``keys`` from the copy, or ``read()`` (which reads them from Redis) kept as the copy."""
        names = tuple(keys)
        self._connect_when_due()
        with self._lock:
            tracking = self._poll()
            kept = self._copies.get(names)
            if tracking and kept is not None and time.monotonic() - kept[0] < self.max_age:
                return kept[1]
            generation = self._generation
        value = read()
        with self._lock:
            if self._poll() and generation == self._generation:
                self._copies[names] = (time.monotonic(), value)
        return value

    def forget(self) -> None:
        """Drops every copy (this process just wrote: its own message may not have been read yet)."""
        with self._lock:
            self._generation += 1
            self._copies.clear()

    def _poll(self) -> bool:
        """Reads the messages waiting, dropping the copies; False when not tracking (and so not to be trusted)."""
        self._forked()
        if self._connection is None:
            return False
        if self._poller is not None and not self._poller.poll(0):
            return True  # nothing came since the last poll emptied redis-py's buffer
        try:
            while self._connection.can_read(timeout=0):
                self._connection.read_response(push_request=True, timeout=0)
                self._generation += 1
                self._copies.clear()
        except (redis.RedisError, OSError):
            self._disconnect()
            return False
        self._poller = self._socket_poller(self._connection)
        return True

    @staticmethod
    def _socket_poller(connection: Any) -> select.poll | None:
        """A poll of the connection's socket, for reading, errors and a hang-up; None for an encrypted one."""
        sock = getattr(connection, "_sock", None)  # redis-py's socket, connected
        if sock is None or isinstance(sock, ssl.SSLSocket):
            return None
        poller = select.poll()
        poller.register(sock.fileno(), select.POLLIN | select.POLLPRI)
        return poller

    def _forked(self) -> None:
        if self._pid != os.getpid():
            # A forked worker never reads its parent's socket.
            self._connection, self._poller, self._pid, self._connecting = None, None, os.getpid(), False
            self._copies.clear()

    def _connect_when_due(self) -> None:
        """Without a connection, one thread at a time makes one, at most once every ``RETRY_SECONDS``."""
        if self._connection is not None:
            return  # a forked worker's inherited one is dropped by the next _poll
        with self._lock:
            self._forked()
            if self._connection is not None or self._connecting or time.monotonic() < self._retry_at:
                return
            self._connecting = True
            self._retry_at = time.monotonic() + RETRY_SECONDS
        # redis-py types its connections' methods loosely; the connection is used only here.
        connection: Any = ConnectionPool.from_url(self.url, protocol=3, **self._timeouts).make_connection()
        try:
            connection.connect()
            connection.send_command("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", self.prefix)
            connection.read_response()
        except (redis.RedisError, OSError):
            connection.disconnect()
            connection = None
        with self._lock:
            self._connecting = False
            if connection is None or self._pid != os.getpid():
                return
            self._connection = connection
            # redis-py may have read messages past the reply into its buffer: the next poll reads them its own way.
            self._poller = None
            # Whatever changed before tracking began was never announced.
            self._generation += 1
            self._copies.clear()

    def _disconnect(self) -> None:
        if self._connection is not None:
            self._connection.disconnect()
        self._connection, self._poller = None, None
        self._generation += 1
        self._copies.clear()
