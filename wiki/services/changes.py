"""Recording an entry of recent changes; every editing service calls this."""

from __future__ import annotations

from django.db import models

from wiki.models import ChangeEvent


def change_record(*, kind: str, action: str, obj: models.Model, label: str, url: str, user: object | None,
                  summary: str = "", size_delta: int | None = None) -> ChangeEvent:
    return ChangeEvent.objects.create(
        kind=kind, action=action, object_id=obj.pk, label=label[:300], url=url[:500], summary=summary[:500],
        size_delta=size_delta, user=user if getattr(user, "pk", None) else None,
    )
