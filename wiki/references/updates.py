"""What a reference file says of a work the wiki has that the wiki does not (plain Python over a draft and a source).

A reference manager's record changes after it was imported: the published version's DOI, venue, volume and pages are
added, a typo in the title or the year is corrected, an abstract is pasted in. Found again in a file, the work is
"already in the wiki", and each field the file gives otherwise is offered to the editor, field by field, as a
reference manager's merge dialog offers them (Zotero's "merge items", JabRef's "merge entries"): a field the wiki has
empty is filled when the editor takes it, one the wiki has otherwise is changed only when the editor picks it, and a
field the file leaves empty never empties the wiki's, and what an export writes in the stead of a field the work has
empty (its address as its key, an entry type its kind calls for) is no change of it. The work's other fields (``Source.extra_fields``:
``keywords``, ``language``, ``urldate``, an ``editor``…) are offered one by one too, each named
``extra_fields.<its BibTeX name>`` (:func:`extra_field_update`), since a BibTeX name such as biblatex's ``venue`` may
also be a field of the work's own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError

from wiki.field_labels import field_label_of
from wiki.models.rules import percent_encode_url
from wiki.references.bibtex_export import ENTRY_TYPE_BY_KIND
from wiki.references.csl import ENTRY_TYPE_BY_CSL_TYPE, ENTRY_TYPE_SYNONYMS, TYPE_BY_KIND
from wiki.references.draft import (
    BIBLIOGRAPHIC_FIELDS,
    VENUE_FIELDS,
    SourceDraft,
    clean_bibliographic,
    separated_authors,
)
from wiki.references.extra_fields import KEPT_ELSEWHERE, NAME
from wiki.references.names import author_names, person

# The fields a file's record may update, in the order a reference's details are read.
UPDATED_FIELDS = ("title", "authors", "year", "venue", "doi", "arxiv_id", "url", "entry_type", "bibtex_key", "abstract")
# The prefix naming one of the work's other fields among the fields an import updates.
EXTRA_PREFIX = "extra_fields."
# The work's other fields an export writes under another name (a work's biblatex langid as CSL's and RIS's language,
# its location as CSL's publisher-place), by the field they read back as.
_WRITTEN_AS = {EXTRA_PREFIX + "language": "langid", "address": "location"}
# The work's other fields that are lists of people, kept as its authors are.
_NAME_LISTS = frozenset(EXTRA_PREFIX + name for name in ("editor", "translator", "bookauthor"))


@dataclass(frozen=True)
class FieldUpdate:
    """The file's ``offered`` value of the work's field ``name`` (a source field, or a bibliographic detail by BibTeX's
    name), which the wiki has as ``current`` (empty when it has none)."""

    name: str
    current: str
    offered: str

    @property
    def label(self) -> str:
        return field_label_of(self.name)

    @property
    def fills(self) -> bool:
        """Whether the wiki has the field empty: taking it loses nothing."""
        return not self.current


def extra_field_update(name: str) -> str:
    """The name under which an import offers the work's other field ``name`` (``extra_fields.keywords``)."""
    return EXTRA_PREFIX + name


def extra_field_name(name: str) -> str | None:
    """The other field an update's ``name`` is (``keywords`` for ``extra_fields.keywords``), or None for a field of the
    work's own or a bibliographic detail."""
    return name.removeprefix(EXTRA_PREFIX) if name.startswith(EXTRA_PREFIX) else None


def is_updatable(name: str) -> bool:
    extra = extra_field_name(name)
    if extra is not None:
        return bool(NAME.fullmatch(extra)) and extra not in KEPT_ELSEWHERE
    return name in UPDATED_FIELDS or name in BIBLIOGRAPHIC_FIELDS


def _shown(name: str, value: Any) -> str:
    if value is None:
        return ""
    text = str(value).strip()
    return " ".join(text.split()) if name != "abstract" else text


def _same(name: str, offered: str, current: str) -> bool:
    """Whether the file's value is the wiki's, once read as the wiki keeps it."""
    if name == "authors" or name in _NAME_LISTS:
        return _same_names(separated_authors(offered), current)
    if name == "url":
        return percent_encode_url(offered) == current
    if name == "abstract":
        return " ".join(offered.split()) == " ".join(current.split())
    if name == "bibtex_key":
        return offered.lower() == current.lower()
    if name == "entry_type":  # CSL's "report" reads back as @techreport, which biblatex's @report is
        return ENTRY_TYPE_SYNONYMS.get(offered, offered) == ENTRY_TYPE_SYNONYMS.get(current, current)
    if name == "pages":  # a range's dash as written (71-80) or as BibTeX's export writes it (71--80, read as 71–80)
        return _PAGE_DASH.sub("–", offered) == _PAGE_DASH.sub("–", current)
    return offered == current


_PAGE_DASH = re.compile(r"\s*(?:-{1,3}|[–—])\s*")


def _same_names(offered: str, current: str) -> bool:
    """Whether two lists of names name the same people in the same order, each written as it is or turned round
    (``Sturtevant, Nathan R.`` is ``Nathan R. Sturtevant``, as CSL-JSON and Zotero give a name the wiki has as a
    BibTeX file wrote it)."""
    if offered == current:
        return True
    ours, theirs = author_names(offered), author_names(current)
    return len(ours) == len(theirs) and all(
        one == other or (person(one) is not None and person(one) == person(other)) for one, other in zip(ours, theirs, strict=True))


def _written_in_its_stead(name: str, work: Any) -> frozenset[str]:
    """What the exports write for the field ``name`` that ``work`` has empty, as the importers read it back: its
    address as its citation key (:mod:`wiki.references.citation_keys`), the entry type its kind calls for (in
    BibTeX and RIS, and as CSL-JSON's type reads back), and its venue in the field its entry type calls for. Taken, it would change nothing the exports write: a work
    exported and imported back is offered nothing."""
    if name == "bibtex_key" and (slug := getattr(work, "slug", "")):
        return frozenset({slug, f"{slug}-{work.pk}"})
    if name == "entry_type":
        kind = getattr(work, "kind", "")
        implied = (ENTRY_TYPE_BY_KIND.get(kind, "misc"), ENTRY_TYPE_BY_CSL_TYPE.get(TYPE_BY_KIND.get(kind, "article"), ""))
        return frozenset(implied) - {""}
    if name in VENUE_FIELDS and (venue := getattr(work, "venue", "")):
        return frozenset({venue})
    # biblatex's langid and location, which CSL-JSON writes as its language and publisher-place, read back as those
    extra = getattr(work, "extra_fields", None) or {}
    if (written := _WRITTEN_AS.get(name)) and extra.get(written):
        return frozenset({_shown(name, extra[written])})
    return frozenset()


def offered_updates(draft: SourceDraft, work: Any) -> list[FieldUpdate]:
    """Each field the draft gives and ``work`` (a source) has otherwise, or not at all: its own fields, then its
    bibliographic details, then its other fields."""
    updates = []
    details = getattr(work, "bibliographic", None) or {}
    try:
        given = clean_bibliographic(draft.bibliographic)  # as the work keeps them: a month as its number
    except ValidationError:
        given = draft.bibliographic
    pairs = [(name, _shown(name, getattr(draft, name)), _shown(name, getattr(work, name))) for name in UPDATED_FIELDS]
    pairs += [(name, _shown(name, value), _shown(name, details.get(name))) for name, value in given.items()]
    extra = getattr(work, "extra_fields", None) or {}
    pairs += [(extra_field_update(name), _shown(name, value), _shown(name, extra.get(name)))
              for name, value in sorted(draft.extra_fields.items())]
    for name, offered, current in pairs:
        if not current and offered in _written_in_its_stead(name, work):
            continue
        if offered and not _same(name, offered, current):
            updates.append(FieldUpdate(name, current, offered))
    return updates
