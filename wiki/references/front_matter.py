"""The ``key: value`` lines between a page file's ``---`` fences, written and read as YAML scalars.

A value that YAML would read as written (``title: Agentic RL``) is written bare; any other (quotes at its ends,
line breaks, leading or trailing spaces, ``: `` or `` #`` inside, a YAML indicator first) is written as a YAML
double-quoted string on one line, with escapes. The reader takes a YAML double- or single-quoted string back to
its text; any other value is taken as written, one pair of matching quotes around it removed (as files written
by hand, and by earlier versions of the wiki, have it).
"""

from __future__ import annotations

import re

# What YAML reads as something else than the text when bare: an indicator first, ": " or " #" inside, a final
# colon, a number, a boolean or null.
_INDICATOR_FIRST = frozenset("-?:,[]{}#&*!|>'\"%@`")
_NOT_TEXT = re.compile(
    r"[-+]?(\.?\d[\d_.,:]*([eE][-+]?\d+)?|\.inf|\.nan|0x[0-9a-fA-F_]+|0o?[0-7_]+)"
    r"|y|n|yes|no|true|false|on|off|null|~",
    re.IGNORECASE,
)
# Characters written escaped: the C0 and C1 controls, the line and paragraph separators, and the characters
# YAML does not allow in a document (the byte-order mark, the non-characters U+FFFE and U+FFFF).
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")
_NAMED_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}
_ESCAPED = re.compile(r'[\\"]|' + _UNPRINTABLE.pattern)
# YAML's escapes in a double-quoted string (https://yaml.org/spec/1.2.2/#57-escaped-characters).
_SIMPLE_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r", "e": "\x1b",
    " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029",
}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}
# After the closing quote: nothing, or a comment.
_TRAILING = re.compile(r"\s*(#.*)?")


def _plain(value: str) -> bool:
    return bool(
        value
        and value == value.strip()
        and value[0] not in _INDICATOR_FIRST
        and ": " not in value
        and " #" not in value
        and not value.endswith(":")
        and not _UNPRINTABLE.search(value)
        and not _NOT_TEXT.fullmatch(value)
    )


def front_matter_value(value: str) -> str:
    """``value`` as a YAML scalar on one line that :func:`read_front_matter_value` gives back unchanged."""
    if _plain(value):
        return value
    return '"' + _ESCAPED.sub(lambda m: _NAMED_ESCAPES.get(m.group(), f"\\u{ord(m.group()):04x}"), value) + '"'


def _double_quoted(value: str) -> str | None:
    """The text of a YAML double-quoted string that is the whole of ``value``; ``None`` when it is not one."""
    out: list[str] = []
    index = 1
    while index < len(value):
        char = value[index]
        if char == '"':
            if not _TRAILING.fullmatch(value, index + 1):
                return None
            text = "".join(out)
            try:  # escaped UTF-16 surrogate pairs (as JSON writes them) joined into their character
                return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
            except UnicodeDecodeError:
                return None
        if char != "\\":
            out.append(char)
            index += 1
            continue
        escape = value[index + 1 : index + 2]
        if escape in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[escape])
            index += 2
        elif escape in _HEX_ESCAPES:
            digits = value[index + 2 : index + 2 + _HEX_ESCAPES[escape]]
            if len(digits) != _HEX_ESCAPES[escape] or not re.fullmatch(r"[0-9a-fA-F]+", digits) or int(digits, 16) > 0x10FFFF:
                return None
            out.append(chr(int(digits, 16)))
            index += 2 + len(digits)
        else:
            return None
    return None  # no closing quote


def _single_quoted(value: str) -> str | None:
    """The text of a YAML single-quoted string (``''`` is a quote) that is the whole of ``value``, or ``None``."""
    match = re.match(r"'((?:[^']|'')*)'", value)
    if match is None or not _TRAILING.fullmatch(value, match.end()):
        return None
    return match.group(1).replace("''", "'")


def read_front_matter_value(raw: str) -> str:
    """The text of a front-matter value as :func:`front_matter_value` writes it, or as typed by hand."""
    value = raw.strip()
    quoted = _double_quoted(value) if value.startswith('"') else _single_quoted(value) if value.startswith("'") else None
    if quoted is not None:
        return quoted
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value
