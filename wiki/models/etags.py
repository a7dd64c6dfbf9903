"""HTTP validators (a strong ETag and a Last-Modified time) of what the wiki shows, computed in the database.

The HTML views and the API answer ``If-None-Match`` with 304 and refuse a stale ``If-Match`` with 412 from
the same values; every part that changes what a page, a source or a list shows is folded into the tag.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Validator:
    etag: str  # quoted, as sent in the ETag header
    last_modified: datetime | None


def make_validator(prefix: str, *parts: object, last_modified: datetime | None) -> Validator:
    """A strong ETag ``"<prefix>-<hash of parts>"``: equal exactly when every part is."""
    digest = hashlib.sha256("\x1f".join(str(part) for part in parts).encode()).hexdigest()[:20]
    return Validator(etag=f'"{prefix}-{digest}"', last_modified=last_modified)


def latest(*times: datetime | None) -> datetime | None:
    known = [time for time in times if time is not None]
    return max(known) if known else None
