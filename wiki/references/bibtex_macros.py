"""BibTeX's ``@string`` macros: a value as written (``{…}``, ``"…"``, a number, a macro, or parts joined by ``#``)
expanded to its text, within bounds.

``@string{m1 = m0 # m0}`` doubles what ``m0`` holds: thirty such lines, a few hundred bytes, would make a gigabyte.
Lengths are added up before any text is joined, so that a value longer than its bound is never built: a macro over
:data:`MAX_MACRO_CHARS` is kept as its length alone, and a field using it is refused (:class:`TooLong`). All the
text macros and fields expand to in one file is at most :data:`MAX_EXPANDED_CHARS`, as much as the largest file an
import takes: a file that would read as more is refused whole, as a larger file is.
"""

from __future__ import annotations

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


def split_concatenation(value: str) -> list[str]:
    """``foo # " 2"`` → ``["foo", '" 2"']``: the ``#`` operator outside braces and quotes (``value`` as written,
    its braces and quotes kept; an escaped ``\\{`` or ``\\"`` delimits nothing)."""
    parts, depth, quoted, start = [], 0, False, 0
    for index, char in enumerate(value):
        if index and value[index - 1] == "\\":
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == '"' and depth == 0:
            quoted = not quoted
        elif char == "#" and depth == 0 and not quoted:
            parts.append(value[start:index])
            start = index + 1
    parts.append(value[start:])
    return [part.strip() for part in parts]


def _literal(part: str) -> str | None:
    """The text of a braced or quoted part, or a number (which BibTeX takes bare); None for a macro's name."""
    if len(part) >= 2 and (part[0], part[-1]) in {("{", "}"), ('"', '"')}:
        return part[1:-1]
    return part if part.isdigit() or not part else None


class Macros:
    """The month names and a file's ``@string`` macros, each expanded when it is defined, as BibTeX does (a macro
    uses those defined before it)."""

    def __init__(self, *, max_macro_chars: int) -> None:
        self.max_macro_chars = max_macro_chars
        self.values = {month: str(number) for number, month in enumerate(MONTHS, start=1)}
        self.too_long: dict[str, int] = {}  # a macro never built: the length it would have had
        self.undefined: dict[str, list[str]] = {}  # the names a macro used that nothing defined before it
        self.budget = MAX_EXPANDED_CHARS

    def define(self, name: str, written: str) -> None:
        key = name.lower()
        self.values.pop(key, None)
        self.too_long.pop(key, None)
        try:
            self.values[key], self.undefined[key] = self.expand(written, limit=self.max_macro_chars)
        except TooLong as error:
            self.too_long[key] = error.length

    def expand(self, written: str, *, limit: int) -> tuple[str, list[str]]:
        """``written`` as text, and the names it uses that no ``@string`` defined (BibTeX reads them as nothing);
        raises :class:`TooLong` when the text would be longer than ``limit``, before building it, and
        :class:`~wiki.references.errors.ReferencesRefused` when the file's macros have expanded to more text than
        a file may hold."""
        parts = split_concatenation(written)
        length = 0
        for part in parts:
            literal = _literal(part)
            key = part.lower()
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
