"""Which ``charset`` of a request's media type names an encoding text is written in.

Python's codec registry also holds transforms of bytes to bytes (``base64``, ``rot13``, ``hex``, ``zlib``) and codecs
of its own (``idna``, ``punycode``, ``unicode_escape``, ``undefined``) that no document is written in: decoding with
them raises errors other than :class:`UnicodeDecodeError`, or reads escapes as characters.
"""

from __future__ import annotations

import codecs
from typing import Any

from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.utils.http import parse_header_parameters

# Codecs Python counts as text encodings that no file or request body is written in.
_NOT_CHARSETS = frozenset({"idna", "punycode", "undefined", "unicode-escape", "raw-unicode-escape", "charmap"})


def text_encoding(charset: str) -> str | None:
    """The codec ``charset`` names (``latin-1`` → ``iso8859-1``) when it is an encoding text is written in, else
    None (unknown, a transform such as ``base64``, or Python's own such as ``punycode``)."""
    try:
        info = codecs.lookup(charset)
    except LookupError:
        return None
    if not getattr(info, "_is_text_encoding", True) or info.name in _NOT_CHARSETS:
        return None
    return info.name


class WikiWSGIRequest(WSGIRequest):
    """Django's request, reading its query string and form fields in the ``charset`` the body declares only when that
    names a text encoding. Django takes any codec Python knows (``charset=base64``), and building the request then
    fails, a 500 before any view or middleware runs; such a request is read in the site's own charset, and the
    body's parsers refuse the charset with a 400."""

    def _set_content_type_params(self, meta: dict[str, Any]) -> None:
        self.content_type, self.content_params = parse_header_parameters(meta.get("CONTENT_TYPE", ""))
        charset = self.content_params.get("charset", "")
        if charset and text_encoding(charset) is not None:
            self.encoding = charset


class WikiWSGIHandler(WSGIHandler):
    request_class = WikiWSGIRequest
