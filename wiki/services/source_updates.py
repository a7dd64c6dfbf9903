"""Taking into a work the fields an import found otherwise in a reference manager's record (wiki.references.updates):
the fields the editor picked, and only those, as one edit of the work in its history.

Taken from an import's report, the fields are recorded with the import (``SourceImport.updated_fields``, each with its
value before and after), and undoing the import gives each back the value it had, unless it was edited since
(:func:`source_give_back_updates`), as undoing a merge gives back the fields the kept work took.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from wiki.change_summaries import Summary, summary
from wiki.models import Source, SourceImport
from wiki.references.draft import BIBLIOGRAPHIC_FIELDS
from wiki.references.updates import UPDATED_FIELDS, extra_field_name, is_updatable
from wiki.roles import User
from wiki.services.sources import SourceSaved, source_save


def update_order(name: str) -> tuple[int, int, str]:
    """Where a field comes in a work's form: its own fields, its bibliographic details, its other fields."""
    if name in UPDATED_FIELDS:
        return 0, UPDATED_FIELDS.index(name), ""
    if name in BIBLIOGRAPHIC_FIELDS:
        return 1, list(BIBLIOGRAPHIC_FIELDS).index(name), ""
    return 2, 0, name


def fields_taken(record: SourceImport, work_id: int) -> list[tuple[str, Any, Any]]:
    """The fields the import ``record`` took into the work ``work_id``, each with its value before and after, in the
    order of a work's form."""
    taken = record.updated_fields[str(work_id)]
    return [(name, *taken[name]) for name in sorted(taken, key=update_order)]


def update_value(work: Source, name: str) -> Any:
    """What ``work`` has of the field an import names ``name`` (empty when it has none)."""
    extra = extra_field_name(name)
    if extra is not None:
        return work.extra_fields.get(extra, "")
    return work.bibliographic.get(name, "") if name in BIBLIOGRAPHIC_FIELDS else getattr(work, name)


def _fields(work: Source, values: dict[str, Any]) -> dict[str, Any]:
    """The source fields :func:`~wiki.services.sources.source_save` takes to give ``work`` ``values`` (by the names an
    import offers them): an empty detail or other field is left out rather than kept empty."""
    details, extra = dict(work.bibliographic), dict(work.extra_fields)
    fields: dict[str, Any] = {}
    for name, value in values.items():
        if (other := extra_field_name(name)) is not None:
            extra[other] = value
        elif name in BIBLIOGRAPHIC_FIELDS:
            details[name] = value
        else:
            fields[name] = value
    if (details := {name: value for name, value in details.items() if value}) != work.bibliographic:
        fields["bibliographic"] = details
    if (extra := {name: value for name, value in extra.items() if value}) != work.extra_fields:
        fields["extra_fields"] = extra
    return fields


@transaction.atomic
def source_take_updates(
    *,
    source: Source,
    values: dict[str, str],
    user: User | None = None,
    only_empty: bool = False,
    loaded_at: datetime | None = None,
    record: SourceImport | None = None,
) -> SourceSaved:
    """Sets the work's fields ``values`` (by the names :func:`~wiki.references.updates.offered_updates` gives: a
    source field, a bibliographic detail by BibTeX's name, or ``extra_fields.<name>`` for one of its other fields);
    with ``only_empty``, those the work has empty now only. Saved as :func:`~wiki.services.sources.source_save` saves
    an edit (``loaded_at``: a save since the import was read raises ``StaleEdit``; the duplicate checks refuse an
    identifier or title another work has); a name that is no such field, or a year that is no number, raises
    ``ValidationError``. With ``record``, the import the values came from, what was taken is recorded with it, for its
    undo to give back; an import undone already raises ``ValidationError`` and nothing is taken."""
    unknown = [name for name in values if not is_updatable(name)]
    if unknown:
        raise ValidationError(
            gettext("“%(name)s” is no field an import updates.") % {"name": unknown[0]}, code="invalid"
        )
    if record is not None:
        record = SourceImport.objects.select_for_update().get(pk=record.pk)
        if record.is_undone:
            raise ValidationError(gettext("This import is undone already."), code="undone")
    current = Source.all_objects.select_for_update().get(pk=source.pk)
    taken: dict[str, Any] = {}
    for name, value in sorted(values.items(), key=lambda item: update_order(item[0])):
        if only_empty and update_value(current, name) not in ("", None):
            continue
        if name == "year":
            if not value.strip().isdigit():
                raise ValidationError(
                    gettext("The year “%(value)s” is not a number.") % {"value": value}, code="invalid"
                )
            taken["year"] = int(value)
        else:
            taken[name] = value
    before = {name: update_value(current, name) for name in taken}
    fields = _fields(current, taken)
    if not fields:
        return SourceSaved(source=current, unchanged=True)
    saved = source_save(
        source=current,
        fields=fields,
        user=user,
        loaded_at=loaded_at,
        summary=summary("updated_from_import", fields=list(taken)),
    )
    if record is not None and not saved.unchanged:
        kept = record.updated_fields.setdefault(str(saved.source.pk), {})
        for name in taken:
            after = update_value(saved.source, name)
            if after != before[name]:
                # taken twice from one import: its undo gives back the value from before the first time
                kept[name] = [kept.get(name, [before[name]])[0], after]
        record.save(update_fields=["updated_fields"])
    return saved


def source_give_back_updates(
    *, work: Source, taken: dict[str, list[Any]], user: User | None, said: Summary
) -> list[str]:
    """Gives ``work`` (locked) back the value each field of ``taken`` (``{name: [before, after]}``) had before an
    import's file gave it another, unless it was edited since; the fields given back. Saved as an edit, summed up as
    ``said``; raises what :func:`~wiki.services.sources.source_save` raises (another work has the identifier now)."""
    back = {name: before for name, (before, after) in taken.items() if update_value(work, name) == after}
    if back:
        source_save(source=work, fields=_fields(work, back), user=user, summary=said)
    return list(back)
