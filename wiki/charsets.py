"""Which ``charset`` of a request's media type names an encoding text is written in.

Python's codec registry also holds transforms of bytes to bytes (``base64``, ``rot13``, ``hex``, ``zlib``) and codecs
of its own (``idna``, ``punycode``, ``unicode_escape``, ``undefined``) that no document is written in: decoding with
them raises errors other than :class:`UnicodeDecodeError`, or reads escapes as characters.
"""

from __future__ import annotations

import codecs

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
