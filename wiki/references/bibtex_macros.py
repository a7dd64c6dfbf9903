"""BibTeX's ``@string`` macros: a value as written (``{…}``, ``"…"``, a number, a macro, or parts joined by ``#``)
expanded to its text, within bounds.

``@string{m1 = m0 # m0}`` doubles what ``m0`` holds: thirty such lines, a few hundred bytes, would make a gigabyte.
Lengths are added up before any text is joined, so that a value longer than its bound is never built: a macro over
:data:`MAX_MACRO_CHARS` is kept as its length alone, and a field using it is refused (:class:`TooLong`). All the
text macros and fields expand to in one file is at most :data:`MAX_EXPANDED_CHARS`, as much as the largest file an
import takes: a file that would read as more is refused whole, as a larger file is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from django.utils.translation import gettext

from wiki.references.errors import ReferencesRefused

MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
# As much as wiki.references.formats.MAX_IMPORT_BYTES, which imports this module.
MAX_EXPANDED_CHARS = 5 * 1024 * 1024


class TooLong(ValueError):
    """A value longer than it may be once its macros are expanded; ``length`` is what it would have had."""

    def __init__(self, length: int) -> None:
        super().__init__(length)
        self.length = length


class NotOneValue(ValueError):
    """A value that goes on after it closes (``{Title}\n author = {…}``: the comma after it left out), or that uses a
    macro whose ``@string`` is such a value; ``rest`` is what follows, ``macro`` the macro's name."""

    def __init__(self, rest: str, macro: str = "") -> None:
        super().__init__(rest or macro)
        self.rest = rest
        self.macro = macro


# A macro's name, as BibTeX reads one.
_NAME = re.compile(r"[^\s\"#%'(),={}]+")


def _marks(value: str) -> Iterator[tuple[int, str, int]]:
    """Each brace, quote and ``#`` of ``value`` that delimits (an escaped ``\\{`` or ``\\"`` does not), with the depth of
    braces after it."""
    depth = 0
    for index, char in enumerate(value):
        if index and value[index - 1] == "\\":
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char not in '"#':
            continue
        yield index, char, depth


def split_concatenation(value: str) -> list[str]:
    """``foo # " 2"`` → ``["foo", '" 2"']``: the ``#`` operator outside braces and quotes (``value`` as written,
    its braces and quotes kept)."""
    parts, quoted, start = [], False, 0
    for index, char, depth in _marks(value):
        if char == '"' and depth == 0:
            quoted = not quoted
        elif char == "#" and depth == 0 and not quoted:
            parts.append(value[start:index])
            start = index + 1
    parts.append(value[start:])
    return [part.strip() for part in parts]


def _closing(part: str) -> int:
    """Where the brace or quote that opens ``part`` is closed, or -1."""
    opener = part[:1]
    for index, char, depth in _marks(part):
        if depth == 0 and index and char == {"{": "}", '"': '"'}.get(opener):
            return index
    return -1


def _literal(part: str) -> str | None:
    """The text of a braced or quoted part, or a number (which BibTeX takes bare); None for a macro's name. Raises
    :class:`NotOneValue` for a part that goes on after it closes."""
    if part[:1] in {"{", '"'}:
        end = _closing(part)
        if 0 < end < len(part) - 1:
            raise NotOneValue(part[end + 1:].strip())
        return part[1:-1]
    if part.isdigit() or not part:
        return part
    name = _NAME.match(part)
    if not name or name.end() < len(part):
        raise NotOneValue(part[name.end() if name else 0:].strip())
    return None


class Macros:
    """The month names and a file's ``@string`` macros, each expanded when it is defined, as BibTeX does (a macro
    uses those defined before it)."""

    def __init__(self, *, max_macro_chars: int) -> None:
        self.max_macro_chars = max_macro_chars
        self.values = {month: str(number) for number, month in enumerate(MONTHS, start=1)}
        self.too_long: dict[str, int] = {}  # a macro never built: the length it would have had
        self.not_one_value: set[str] = set()  # a macro whose value goes on after it closes
        self.undefined: dict[str, list[str]] = {}  # the names a macro used that nothing defined before it
        self.budget = MAX_EXPANDED_CHARS

    def define(self, name: str, written: str) -> None:
        key = name.lower()
        self.values.pop(key, None)
        self.too_long.pop(key, None)
        self.not_one_value.discard(key)
        try:
            self.values[key], self.undefined[key] = self.expand(written, limit=self.max_macro_chars)
        except TooLong as error:
            self.too_long[key] = error.length
        except NotOneValue:
            self.not_one_value.add(key)

    def expand(self, written: str, *, limit: int) -> tuple[str, list[str]]:
        """``written`` as text, and the names it uses that no ``@string`` defined (BibTeX reads them as nothing);
        raises :class:`TooLong` when the text would be longer than ``limit``, before building it, and
        :class:`~wiki.references.errors.ReferencesRefused` when the file's macros have expanded to more text than
        a file may hold, and :class:`NotOneValue` for a value that goes on after it closes or uses a macro that does."""
        parts = split_concatenation(written)
        length = 0
        for part in parts:
            literal = _literal(part)
            key = part.lower()
            if literal is None and key in self.not_one_value:
                raise NotOneValue("", macro=part)
            length += len(literal) if literal is not None else self.too_long.get(key) or len(self.values.get(key, ""))
        if length > limit:
            raise TooLong(length)
        self.budget -= length
        if self.budget < 0:
            raise ReferencesRefused(gettext("Once its @string macros are expanded, the file holds more than %(size)s "
                                            "million characters; import it in parts.")
                                    % {"size": MAX_EXPANDED_CHARS // (1024 * 1024)}, code="too_large")
        pieces, undefined = [], []
        for part in parts:
            literal = _literal(part)
            if literal is not None:
                pieces.append(literal)
                continue
            key = part.lower()
            if key not in self.values:
                undefined.append(part)
            pieces.append(self.values.get(key, ""))
            undefined += self.undefined.get(key, [])
        return "".join(pieces), undefined
