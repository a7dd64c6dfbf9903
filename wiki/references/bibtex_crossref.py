"""BibTeX's ``crossref``: a paper takes what it lacks (the year, the venue) from the proceedings or book it names.

BibTeX copies every field the child lacks; biber also gives an ``@inproceedings`` the parent's ``title`` as its
``booktitle``. The wiki takes only what describes where and when the work appeared, never the parent's
identifiers, address, abstract or note: a paper given its proceedings' DOI would be that volume. A parent named by
fewer than two entries is left out of the import, as BibTeX leaves it out of a bibliography (``min-crossrefs`` is
2): it is read into the paper instead. A parent nothing names is an entry like any other; a ``crossref`` naming no
entry of the file is an error only of an entry that lacks what it would give (its year, or where it appeared).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.utils.translation import gettext

INHERITED = ("year", "date", "booktitle", "journal", "journaltitle", "publisher", "organization", "institution",
             "volume")
# Entry types whose parent's title is their booktitle (biber's default inheritance).
_IN_A_BOOK = frozenset({"inproceedings", "conference", "incollection", "inbook"})
MIN_CROSSREFS = 2


@dataclass
class FieldsRead:
    """One entry's key, type and the fields the wiki reads, macros expanded; the errors found reading them. ``unread``:
    the entry's other fields (wiki.references.bibtex_extra), with ``warnings`` of those left out."""

    key: str
    entry_type: str
    fields: dict[str, str]
    errors: list[str]
    unread: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    unreadable: tuple[str, ...] = ()  # the fields among those read whose value could not be (their errors say why)


def resolve_crossrefs(entries: list[FieldsRead]) -> set[int]:
    """Gives each entry with a ``crossref`` the fields it lacks from the entry it names (a key naming none is an
    error of the entry); returns the indexes of the parents to leave out, named by fewer than
    :data:`MIN_CROSSREFS` entries."""
    parents: dict[str, int] = {}
    for index, entry in enumerate(entries):
        parents.setdefault(entry.key.lower(), index)
    named: Counter[int] = Counter()
    for entry in entries:
        target = entry.fields.get("crossref", "").strip()
        if not target:
            continue
        found = parents.get(target.lower())
        if found is None or entries[found] is entry:
            # DBLP's entries name their proceedings and say already when and where they appeared: one pasted alone
            # is whole without it, as BibTeX keeps it with a warning.
            if not _says_when_and_where(entry.fields):
                entry.errors.append(gettext("crossref “%(key)s” names no other entry of the file, and the entry gives "
                                            "neither its year nor where it appeared") % {"key": target})
            continue
        named[found] += 1
        parent = entries[found].fields
        for name in INHERITED:
            if parent.get(name) and not entry.fields.get(name):
                entry.fields[name] = parent[name]
        if entry.entry_type.lower() in _IN_A_BOOK and not entry.fields.get("booktitle") and parent.get("title"):
            entry.fields["booktitle"] = parent["title"]
    return {index for index, count in named.items() if count < MIN_CROSSREFS}


def _says_when_and_where(fields: dict[str, str]) -> bool:
    """Whether an entry gives, of what a parent could give it, its year or date and a venue of its own."""
    return bool((fields.get("year") or fields.get("date"))
                and any(fields.get(name) for name in ("booktitle", "journal", "journaltitle", "publisher")))
