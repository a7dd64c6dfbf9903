"""A TCP proxy in front of the machine's Redis that a test can cut and restore: Redis going away and coming back with
everything it held, as after a network fault; or freeze and thaw: a Redis that hangs (stopped by SIGSTOP, its socket
still accepting connections) and then goes on."""

from __future__ import annotations

import contextlib
import socket
import threading
from urllib.parse import urlparse


class RedisProxy:
    def __init__(self, target_url: str) -> None:
        target = urlparse(target_url)
        self.target = (target.hostname or "127.0.0.1", target.port or 6379)
        self.database = target.path.lstrip("/") or "0"
        self._listener: socket.socket | None = None
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._running = threading.Event()
        self._running.set()
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/{self.database}"

    def start(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen()
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        """Refuse new connections and break the open ones."""
        with self._lock:
            sockets, self._sockets = self._sockets, []
            listener, self._listener = self._listener, None
        for sock in [*sockets, *([listener] if listener else [])]:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def freeze(self) -> None:
        """Connections are still accepted and commands still sent, but nothing is answered until :meth:`thaw`."""
        self._running.clear()

    def thaw(self) -> None:
        self._running.set()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            with self._lock:
                self._sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                self._running.wait()
                sink.sendall(data)
        except OSError:
            pass
        for sock in (source, sink):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
