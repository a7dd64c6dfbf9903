"""What the BibTeX and JSON parsers say of a file they cannot read, said in the reader's language.

Both parsers speak English, in a small fixed set of sentences; each known one is said again here with what it means
to the person who typed the file, and an unknown one is passed on as the parser wrote it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils.translation import gettext

# bibtexparser's splitter (its BlockAbortedException.abort_reason), most particular first.
_BIBTEX_REASONS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"Unexpected block start: `(?P<next>[^`]*)`"),
     lambda m: gettext("a { or \" is not closed before the next entry (%(next)s) starts") % {"next": m["next"]}),
    (re.compile(r"Unexpectedly reached end of file"),
     lambda m: gettext("the file ends inside this entry: a { or \" is not closed")),
    (re.compile(r"Expected a `=` after entry key `(?P<key>[^`]*)`, but found the end of the entry"),
     lambda m: gettext("the field “%(key)s” has no = and no value") % {"key": m["key"]}),
    (re.compile(r"Expected a `=` after entry key, but found `(?P<found>[^`]*)`"),
     lambda m: gettext("a field's name is not followed by =: “%(found)s” comes first") % {"found": m["found"]}),
    (re.compile(r"Expected either a `,` or `(?P<close>[^`]*)` after a closed entry field value, but found a (?P<found>.*?) before"),
     lambda m: gettext("a field's value is not followed by a comma or the entry's end: “%(found)s” comes first")
     % {"found": m["found"]}),
    (re.compile(r"Expected comma after entry key, but found (?P<found>.*)"),
     lambda m: gettext("the entry's key is not followed by a comma: “%(found)s” comes first") % {"found": m["found"]}),
    (re.compile(r"Expected equals sign after field key, but found (?P<found>.*)"),
     lambda m: gettext("an @string has no =: “%(found)s” comes first") % {"found": m["found"]}),
)

# The json module's messages (JSONDecodeError.msg).
_JSON_MESSAGES: dict[str, Callable[[], str]] = {
    "Expecting value": lambda: gettext("a value is missing"),
    "Expecting ',' delimiter": lambda: gettext("a comma is missing"),
    "Expecting ':' delimiter": lambda: gettext("a colon is missing"),
    "Expecting property name enclosed in double quotes": lambda: gettext(
        "a name in double quotes is expected (a comma too many before it?)"),
    "Unterminated string starting at": lambda: gettext("a string is not closed"),
    "Extra data": lambda: gettext("more text follows the end of the JSON"),
    "Invalid control character at": lambda: gettext("a tab or line break inside a string"),
    "Invalid \\escape": lambda: gettext("a \\ escape JSON does not have"),
}


# The splitter met the next entry's ``@type`` while still inside this one.
_NEXT_ENTRY = re.compile(r"Unexpected block start: `(?P<next>@[^`]*)`|found `(?P<found>@[^`]*)`")


def bibtex_reason(reason: str, *, next_entry_line: int | None = None) -> str:
    """The splitter's ``reason`` for leaving an entry unread, in the reader's language; an entry the next one's start
    interrupted is said to be not closed, with the line where the next begins."""
    said = " ".join(reason.split())
    interrupted = _NEXT_ENTRY.search(said)
    if interrupted and next_entry_line is not None:
        return gettext("this entry is not closed before line %(line)s, where the next entry (%(next)s) starts: its "
                       "closing } is missing, or a { or \" inside it is not closed") % {
            "line": next_entry_line, "next": interrupted["next"] or interrupted["found"]}
    for pattern, say in _BIBTEX_REASONS:
        match = pattern.search(said)
        if match:
            return say(match)
    return said[:300] or gettext("this entry cannot be read")


def json_reason(message: str) -> str:
    """The json module's ``message`` (``JSONDecodeError.msg``), in the reader's language."""
    say = _JSON_MESSAGES.get(message)
    return say() if say else message
