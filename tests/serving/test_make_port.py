"""`make run` and `make serve` look at their address before anything else: a port already taken is said at once, not
after minutes of setting up the database and the wiki."""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _make_port(port: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["make", "--no-print-directory", "port", f"PORT={port}"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=False)


def test_a_port_something_listens_on_is_refused_at_once_and_a_free_one_passes() -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        taken = _make_port(port)
    assert taken.returncode != 0
    assert f"127.0.0.1:{port} is already in use" in taken.stderr
    assert "make run PORT=" in taken.stderr

    free = _make_port(port)
    assert free.returncode == 0, free.stderr
    assert free.stderr == ""


def test_run_and_serve_look_at_the_port_before_setting_anything_up() -> None:
    plan = subprocess.run(["make", "--no-print-directory", "-n", "run"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, check=False).stdout
    assert "connect_ex" in plan
    assert plan.index("connect_ex") < plan.index("prepare_wiki")
