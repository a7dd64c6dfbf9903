"""The files a management command is given: read or checked up front, so that a path that cannot be read or written
stops the command with one line naming it and why, before anything is changed."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

_PROBLEMS = {
    errno.ENOENT: "no such file",
    errno.EISDIR: "is a directory, not a file",
    errno.ENOTDIR: "a part of the path is not a directory",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
}


def _refused(path: Path, error: OSError) -> CommandError:
    problem = _PROBLEMS.get(error.errno or 0) or (error.strerror or str(error)).lower()
    return CommandError(f"{path}: {problem}")


def read_bytes(path: Path) -> bytes:
    """What the file ``path`` holds."""
    try:
        return path.read_bytes()
    except OSError as error:
        raise _refused(path, error) from None


def read_text(path: Path) -> str:
    """The file ``path`` as UTF-8 text (a byte order mark is dropped)."""
    raw = read_bytes(path)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise CommandError(f"{path}: not UTF-8 text (invalid byte at position {error.start})") from None


def read_json(path: Path) -> Any:
    """The JSON document in the file ``path``."""
    try:
        return json.loads(read_text(path))
    except json.JSONDecodeError as error:
        raise CommandError(f"{path}: not JSON ({error.msg} at line {error.lineno})") from None


def check_readable(path: Path) -> None:
    """For a file a service opens itself: it exists, is a file, and may be read."""
    try:
        with path.open("rb"):
            pass
    except OSError as error:
        raise _refused(path, error) from None


def check_directory(path: Path) -> None:
    if not path.exists():
        raise CommandError(f"{path}: no such directory")
    if not path.is_dir():
        raise CommandError(f"{path}: not a directory")
    if not os.access(path, os.R_OK | os.X_OK):
        raise CommandError(f"{path}: permission denied")


def check_writable(path: Path) -> None:
    """For a file a command will write: its directory exists and may be written to, and it is not a directory itself.

    Checked without creating the file, so a refused command leaves nothing behind."""
    if path.is_dir():
        raise CommandError(f"{path}: is a directory, not a file")
    parent = path.parent
    if not parent.is_dir():
        raise CommandError(f"{path}: no such directory {parent}")
    if not os.access(path if path.exists() else parent, os.W_OK):
        raise CommandError(f"{path}: permission denied")


def write_errors(path: Path, error: OSError) -> CommandError:
    """The refusal for a write to ``path`` that failed all the same (the disk full, a permission changed meanwhile)."""
    if error.errno == errno.ENOENT:
        return CommandError(f"{path}: no such directory {path.parent}")
    return _refused(path, error)
