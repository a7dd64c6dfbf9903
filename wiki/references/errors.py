"""What refuses a reference file as a whole."""

from __future__ import annotations


class ReferencesRefused(ValueError):
    """The text as a whole cannot be imported: too large, too many entries, in no format the wiki reads, or not
    shaped as its format requires (a CSL-JSON file that is not an array of objects)."""

    def __init__(self, message: str, *, code: str) -> None:
        super().__init__(message)
        self.code = code
