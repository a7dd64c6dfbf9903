"""Recording an entry of recent changes; every editing service calls this."""

from __future__ import annotations

from datetime import datetime

from django.db import models

from wiki.change_summaries import Summary
from wiki.models import ChangeEvent
from wiki.models.rules import fit
from wiki.roles import User, account


class StaleEdit(Exception):
    """Someone saved the object after the editor opened the form: nothing is written, ``current`` is what is saved now."""

    def __init__(self, current: models.Model) -> None:
        super().__init__(f"{current} changed since the form was opened")
        self.current = current


def check_not_stale(obj: models.Model, *, loaded_at: datetime | None) -> None:
    """Raises :class:`StaleEdit` when ``obj`` (read under lock) was saved since ``loaded_at``; no stamp, no check."""
    if loaded_at is not None and getattr(obj, "updated_at") != loaded_at:
        raise StaleEdit(obj)


def change_event(*, kind: str, action: str, obj: models.Model, label: str, url: str, user: User | None,
                 summary: str | Summary = "", size_delta: int | None = None, minor: bool = False) -> ChangeEvent:
    """An unsaved entry, for a service that records many changes at once with ``bulk_create``.

    ``summary`` is the editor's own words, or a :class:`Summary` the wiki writes, which each reader reads in their
    language. ``minor``: a page's edit its editor marked minor."""
    written = summary if isinstance(summary, Summary) else None
    return ChangeEvent(
        kind=kind, action=action, object_id=obj.pk, label=fit(ChangeEvent, "label", label), url=fit(ChangeEvent, "url", url),
        summary=fit(ChangeEvent, "summary", written.english() if written else str(summary)),
        summary_key=written.key if written else "", summary_values=dict(written.values) if written else {},
        size_delta=size_delta, minor=minor, user=account(user),
    )


def change_record(*, kind: str, action: str, obj: models.Model, label: str, url: str, user: User | None,
                  summary: str | Summary = "", size_delta: int | None = None, minor: bool = False) -> ChangeEvent:
    event = change_event(kind=kind, action=action, obj=obj, label=label, url=url, user=user, summary=summary,
                         size_delta=size_delta, minor=minor)
    event.save()
    return event
