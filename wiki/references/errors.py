"""What refuses a reference file as a whole."""

from __future__ import annotations


class ReferencesRefused(ValueError):
    """The text as a whole cannot be imported: too large, too many entries, in no format the wiki reads, or not
    shaped as its format requires (a CSL-JSON file that is not an array of objects)."""

    def __init__(self, message: str, *, code: str) -> None:
        super().__init__(message)
        self.code = code


class FieldProblem(str):
    """A reason an entry is refused that is about one of its fields, ``field`` (by the wiki's name, ``authors``, or
    the file's, ``year``), so that the report can give it the line of that field where the reader knows it."""

    field: str

    def __new__(cls, message: str, *, field: str) -> FieldProblem:
        problem = super().__new__(cls, message)
        problem.field = field
        return problem
