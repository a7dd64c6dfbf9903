"""Schemathesis hooks for .ci/api-fuzz: reference files (BibTeX, RIS) go out as the text generated for them."""

from typing import Any

import schemathesis


@schemathesis.serializer("application/x-bibtex", "application/x-research-info-systems")
def reference_file(ctx: Any, value: Any) -> bytes:
    return value if isinstance(value, bytes) else str(value).encode("utf-8")
