"""Taking into a work the fields an import found otherwise in a reference manager's record (wiki.references.updates):
the fields the editor picked, and only those, as one edit of the work in its history."""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from wiki.change_summaries import summary
from wiki.models import Source
from wiki.references.draft import BIBLIOGRAPHIC_FIELDS
from wiki.references.updates import UPDATED_FIELDS, is_updatable
from wiki.roles import User
from wiki.services.sources import SourceSaved, source_save


@transaction.atomic
def source_take_updates(*, source: Source, values: dict[str, str], user: User | None = None,
                        only_empty: bool = False, loaded_at: datetime | None = None) -> SourceSaved:
    """Sets the work's fields ``values`` (by the names :func:`~wiki.references.updates.offered_updates` gives: a
    source field, or a bibliographic detail by BibTeX's name); with ``only_empty``, those the work has empty now
    only. Saved as :func:`~wiki.services.sources.source_save` saves an edit (``loaded_at``: a save since the import
    was read raises ``StaleEdit``; the duplicate checks refuse an identifier or title another work has); a name that
    is no such field, or a year that is no number, raises ``ValidationError``."""
    unknown = [name for name in values if not is_updatable(name)]
    if unknown:
        raise ValidationError(gettext("“%(name)s” is no field an import updates.") % {"name": unknown[0]}, code="invalid")
    current = Source.all_objects.select_for_update().get(pk=source.pk)
    details = dict(current.bibliographic)
    fields: dict[str, object] = {}
    taken = []
    order = [*UPDATED_FIELDS, *BIBLIOGRAPHIC_FIELDS]
    for name, value in sorted(values.items(), key=lambda item: order.index(item[0])):
        now = details.get(name, "") if name in BIBLIOGRAPHIC_FIELDS else getattr(current, name)
        if only_empty and now not in ("", None):
            continue
        taken.append(name)
        if name in BIBLIOGRAPHIC_FIELDS:
            details[name] = value
        elif name == "year":
            if not value.strip().isdigit():
                raise ValidationError(gettext("The year “%(value)s” is not a number.") % {"value": value}, code="invalid")
            fields["year"] = int(value)
        else:
            fields[name] = value
    if details != current.bibliographic:
        fields["bibliographic"] = details
    if not fields:
        return SourceSaved(source=current, unchanged=True)
    return source_save(source=current, fields=fields, user=user, loaded_at=loaded_at,
                       summary=summary("updated_from_import", fields=taken))
