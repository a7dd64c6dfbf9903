"""Editing a claim's status, its citations and the works it is about."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from wiki.models import ChangeEvent, Citation, Claim, Source
from wiki.services.changes import change_record, check_not_stale


@dataclass(frozen=True)
class CitationInput:
    source: Source
    locator: str
    kind: str


@transaction.atomic
def claim_update(
    *,
    claim: Claim,
    status: str,
    citations: Sequence[CitationInput],
    about: Sequence[Source],
    user: object | None = None,
    loaded_at: datetime | None = None,
) -> Claim:
    """Sets the status, replaces the citations (in the given order, locators as typed) and the works it is about.

    ``loaded_at`` is the claim's ``updated_at`` when the editor opened the form: if it was saved since,
    :class:`StaleEdit` is raised and nothing is written, so one editor never silently undoes another's citations.
    """
    claim = Claim.objects.select_for_update().get(pk=claim.pk)
    check_not_stale(claim, loaded_at=loaded_at)
    old_status = claim.status
    claim.status = status
    claim.full_clean(exclude=["key", "page"])
    claim.save(update_fields=["status", "updated_at"])
    claim.citations.all().delete()
    unique: dict[tuple[int, str], Citation] = {}
    for position, cited in enumerate(citations):
        unique.setdefault(
            (cited.source.pk, cited.locator),
            Citation(claim=claim, source=cited.source, locator=cited.locator, kind=cited.kind, position=position),
        )
    Citation.objects.bulk_create(unique.values())
    claim.about.set([source.pk for source in about])
    summary = f"status {old_status} → {status}" if old_status != status else "citations and works"
    change_record(
        kind=ChangeEvent.Kind.CLAIM, action=ChangeEvent.Action.EDITED, obj=claim, label=claim.text[:120],
        url=claim.get_absolute_url(), summary=summary, user=user,
    )
    return claim
