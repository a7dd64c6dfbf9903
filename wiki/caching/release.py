"""The release: a digest of the code and data that render the wiki, part of the key of everything rendered.

A cached page, fragment or drawing is what one release rendered. After a deploy (new templates, translations,
classifier weights or graph layout) the next reader gets a fresh render instead of the last release's HTML
until it expires, and a browser's copy no longer matches its ETag nor its Last-Modified date. The content version stays shared by every
release, so during a rolling deploy a write through a worker of either release reaches both.

``WIKI_RELEASE`` names the release where the deploy has a name for it (a commit, an image tag); otherwise it
is the digest of the files that render, the same on every server that runs the same code.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.conf import settings

# What a page is rendered from; compiled catalogues (.mo) follow from the .po files beside them.
RENDERING = ("wiki", "classifier", "config", "templates", "static", "locale")
_SKIPPED_SUFFIXES = frozenset({".pyc", ".mo"})


def _rendering_files(base: Path, parts: tuple[str, ...]) -> list[Path]:
    return [path for part in parts for path in sorted((base / part).rglob("*"))
            if path.is_file() and "__pycache__" not in path.parts and path.suffix not in _SKIPPED_SUFFIXES]


def _digest(base: Path, files: list[Path]) -> str:
    digest = hashlib.blake2b(digest_size=6)
    for path in files:
        digest.update(path.relative_to(base).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def code_digest(base: Path, parts: tuple[str, ...] = RENDERING) -> str:
    """A short digest of every file under ``parts`` of ``base``: names and contents, in a fixed order."""
    return _digest(base, _rendering_files(base, parts))


_BASE = Path(settings.BASE_DIR)
_FILES = _rendering_files(_BASE, RENDERING)
RELEASE: str = settings.WIKI_RELEASE or _digest(_BASE, _FILES)
# When the newest rendering file was written (whole seconds since the epoch): the floor of Last-Modified, so a
# client that revalidates by date alone is not told that the last release's page is current.
RELEASED_AT: int = max((int(path.stat().st_mtime) for path in _FILES), default=0)
