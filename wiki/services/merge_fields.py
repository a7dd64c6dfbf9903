"""Which values the kept work takes from the work merged into it, field by field.

Two records of one work often hold each what the other lacks or has wrong: the preprint's abstract, the published
version's venue and pages. A merge keeps the kept work's values unless the editor picks the merged work's, field by
field, as a reference manager's merge dialog offers them. The identifiers stay where they are: the merged work keeps
its arXiv ID and DOI, which lead to the kept work (no other work may take them). What was taken is recorded with the
merge, and undoing the merge gives each field back its former value, unless it was edited since.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, cast

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from wiki.field_labels import field_label_of
from wiki.models import Source, SourceKind
from wiki.models.rules import validate_bibtex_key
from wiki.references.draft import BIBLIOGRAPHIC_FIELDS, ENTRY_TYPE_LABELS
from wiki.services.sources import source_find_duplicate, source_named

# A work's own fields a merge may take from the merged work, in the order its form shows them.
TAKEN_FIELDS = ("short_name", "title", "authors", "year", "venue", "url", "kind", "entry_type", "bibtex_key",
                "abstract", "notes")


@dataclass(frozen=True)
class FieldChoice:
    """A field the two works give otherwise: ``kept``'s value and ``merged``'s (empty when a work has none)."""

    name: str
    kept: Any
    merged: Any

    @property
    def label(self) -> str:
        return field_label_of(self.name)

    def shown(self, value: Any) -> str:
        """A value as the work's page says it: a kind or an entry type by its label."""
        if self.name == "kind" and value in SourceKind.values:
            return str(SourceKind(value).label)
        if self.name == "entry_type" and value in ENTRY_TYPE_LABELS:
            return f"{value} ({ENTRY_TYPE_LABELS[value]})"
        return "" if value is None else str(value)

    @property
    def kept_shown(self) -> str:
        return self.shown(self.kept)

    @property
    def merged_shown(self) -> str:
        return self.shown(self.merged)


def _value(work: Source, name: str) -> Any:
    return work.bibliographic.get(name, "") if name in BIBLIOGRAPHIC_FIELDS else getattr(work, name)


def merge_field_choices(*, kept: Source, merged: Source) -> list[FieldChoice]:
    """Each field (a bibliographic detail too) the merged work has a value of, other than the kept work's."""
    details = [name for name in BIBLIOGRAPHIC_FIELDS if merged.bibliographic.get(name)]
    choices = []
    for name in (*TAKEN_FIELDS, *details):
        mine, theirs = _value(kept, name), _value(merged, name)
        if theirs not in (None, "") and theirs != mine:
            choices.append(FieldChoice(name, mine, theirs))
    return choices


class MergeFieldsRefused(ValidationError):
    """The kept work cannot take the values picked: they would make it another work's duplicate, give it a name
    another work has, or are not valid for it."""


def merge_fields_take(*, kept: Source, merged: Source, names: Collection[str]) -> dict[str, list[Any]]:
    """Gives ``kept`` (locked, saved after) ``merged``'s value of each field of ``names``; ``merged`` is already
    marked merged, so its name and title are free. Each field taken, its value before and after (for the undo);
    raises :class:`MergeFieldsRefused`, the caller's transaction then writing nothing."""
    unknown = sorted(set(names) - {*TAKEN_FIELDS, *BIBLIOGRAPHIC_FIELDS})
    if unknown:
        raise MergeFieldsRefused(_("No field “%(name)s” is taken in a merge.") % {"name": unknown[0]}, code="invalid")
    before = {name: _value(kept, name) for name in names}
    details = dict(kept.bibliographic)
    for name in names:
        if name in BIBLIOGRAPHIC_FIELDS:
            details[name] = merged.bibliographic.get(name, "")
        else:
            setattr(kept, name, getattr(merged, name))
    kept.bibliographic = {name: value for name, value in details.items() if value}
    try:
        kept.full_clean(exclude=["slug"], validate_constraints=False)
        if "bibtex_key" in names:
            validate_bibtex_key(kept.bibtex_key)
    except ValidationError as error:
        raise MergeFieldsRefused(_("The kept work cannot take these values: %(errors)s")
                                 % {"errors": "; ".join(error.messages)}, code="invalid") from None
    if "short_name" in names and (holder := source_named(kept.short_name, exclude_pk=kept.pk)) is not None:
        raise MergeFieldsRefused(_("Another work is called “%(name)s” already: the kept work keeps its own short name.")
                                 % {"name": holder.short_name}, code="name_taken")
    duplicate = source_find_duplicate(arxiv_id=kept.arxiv_id, doi=kept.doi, title=kept.title, year=kept.year,
                                      authors=kept.authors, exclude_pk=kept.pk)
    other = cast(Source, duplicate.work) if duplicate is not None else None  # the candidates are sources
    if duplicate is not None and other is not None and other.pk not in (kept.pk, merged.pk):
        raise MergeFieldsRefused(_("With these values the kept work would be “%(name)s” (%(reason)s).")
                                 % {"name": other.short_name, "reason": duplicate.reason}, code="duplicate")
    kept.save()
    return {name: [before[name], _value(kept, name)] for name in names}


def merge_fields_give_back(*, kept: Source, taken: dict[str, list[Any]]) -> list[str]:
    """Gives ``kept`` back the value each field had before the merge took another, unless it was edited since; the
    fields given back (``kept`` saved when any)."""
    given = []
    details = dict(kept.bibliographic)
    for name, (before, after) in taken.items():
        if _value(kept, name) != after:
            continue
        if name in BIBLIOGRAPHIC_FIELDS:
            details[name] = before
        else:
            setattr(kept, name, before)
        given.append(name)
    if given:
        kept.bibliographic = {name: value for name, value in details.items() if value}
        kept.save()
    return given
