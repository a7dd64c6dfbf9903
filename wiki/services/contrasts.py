"""Setting two works (or components) against each other on an axis."""

from __future__ import annotations

from django.db import transaction

from wiki.models import ChangeEvent, Claim, Component, Contrast, Source
from wiki.services.changes import change_record


@transaction.atomic
def contrast_create(
    *,
    left: Source,
    right: Source,
    axis: str,
    left_component: Component | None = None,
    right_component: Component | None = None,
    claim: Claim | None = None,
    user: object | None = None,
) -> Contrast:
    contrast = Contrast(
        left=left, left_component=left_component, right=right, right_component=right_component, axis=axis, claim=claim
    )
    contrast.full_clean()
    contrast.save()
    if claim is not None:
        claim.about.add(left, right)
    change_record(
        kind=ChangeEvent.Kind.CONTRAST, action=ChangeEvent.Action.CREATED, obj=contrast,
        label=f"{left_component or left} vs {right_component or right}", url=left.get_absolute_url(),
        summary=axis, user=user,
    )
    return contrast
