"""Setting two works (or components) against each other on an axis."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from wiki.models import ChangeEvent, Claim, Component, Contrast, Source
from wiki.roles import User
from wiki.services.changes import change_record, check_not_stale


def contrast_find(
    *, left: Source | None, right: Source | None, left_component: Component | None = None,
    right_component: Component | None = None,
) -> Contrast | None:
    """The contrast of these two works (or components) in either order, if there is one, with its sides (what its
    name and address are made of)."""
    one_way = Q(left=left, left_component=left_component, right=right, right_component=right_component)
    other_way = Q(left=right, left_component=right_component, right=left, right_component=left_component)
    return (Contrast.objects.filter(one_way | other_way)
            .select_related("left", "left_component", "right", "right_component").first())


class ContrastExists(ValidationError):
    """The two sides are contrasted already, by ``contrast``: a form can link it."""

    def __init__(self, contrast: Contrast) -> None:
        super().__init__(_("This contrast exists already."), code="exists")
        self.contrast = contrast


def contrast_check_sides(
    *, left: Source, right: Source, left_component: Component | None = None, right_component: Component | None = None,
) -> None:
    """Refuses a component set against its own whole work: the work contains it, it does not differ from it."""
    component = left_component or right_component
    if left.pk != right.pk or component is None or (left_component is not None and right_component is not None):
        return
    raise ValidationError(
        _("“%(component)s” is a component of %(work)s: a component cannot be contrasted with its own work; "
          "contrast it with another component of %(work)s, or with another work."),
        code="component_of_itself", params={"component": component.name, "work": left.short_name},
    )


def contrast_check_claim(claim: Claim | None, *, left: Source, right: Source) -> None:
    """Refuses as a contrast's evidence a claim that neither cites either work nor is about one: the claim becomes
    about both, and a claim on something else would come to be about two works it never mentions."""
    if claim is None or Claim.objects.filter(pk=claim.pk).about_or_citing([left.pk, right.pk]).exists():
        return
    raise ValidationError({"claim": ValidationError(
        _("Claim %(claim)s neither cites %(left)s or %(right)s nor is about either: the evidence for a contrast is a "
          "claim that speaks of one of its works."),
        code="unrelated_claim", params={"claim": claim.pk, "left": left.short_name, "right": right.short_name},
    )})


@transaction.atomic
def contrast_create(
    *,
    left: Source,
    right: Source,
    axis: str,
    left_component: Component | None = None,
    right_component: Component | None = None,
    claim: Claim | None = None,
    user: User | None = None,
) -> Contrast:
    """Sets ``left`` against ``right``; the same pair the other way round is the same contrast and is refused, and
    so is a component against its own work (:func:`contrast_check_sides`)."""
    contrast_check_sides(left=left, right=right, left_component=left_component, right_component=right_component)
    contrast_check_claim(claim, left=left, right=right)
    # Serialised, so that two editors adding the same contrast at once get a message, not a constraint error.
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext('wiki.contrast.create'))")
    existing = contrast_find(left=left, left_component=left_component, right=right, right_component=right_component)
    if existing is not None:
        raise ContrastExists(existing)
    contrast = Contrast(
        left=left, left_component=left_component, right=right, right_component=right_component, axis=axis, claim=claim
    )
    contrast.full_clean()
    contrast.save()
    if claim is not None:
        claim.about.add(left, right)
    change_record(
        kind=ChangeEvent.Kind.CONTRAST, action=ChangeEvent.Action.CREATED, obj=contrast,
        label=contrast.label, url=left.get_absolute_url(),
        summary=axis, user=user,
    )
    return contrast


@transaction.atomic
def contrast_update(
    *, contrast: Contrast, fields: dict[str, Any], user: User | None = None, loaded_at: datetime | None = None
) -> Contrast:
    """Corrects what a contrast says its works differ on (``axis``) and the claim that says so (``claim``); its two
    sides stay (another pair is another contrast). A save by someone else since ``loaded_at`` raises
    :class:`~wiki.services.changes.StaleEdit`; a save that changes nothing writes nothing."""
    contrast = Contrast.all_objects.select_for_update(of=("self",)).select_related(
        "left", "right", "left_component", "right_component").get(pk=contrast.pk)
    check_not_stale(contrast, loaded_at=loaded_at)
    axis, claim = fields.get("axis", contrast.axis), fields.get("claim", contrast.claim)
    if (axis, claim.pk if claim else None) == (contrast.axis, contrast.claim_id):
        return contrast
    contrast_check_claim(claim, left=contrast.left, right=contrast.right)
    before = contrast.axis
    contrast.axis, contrast.claim = axis, claim
    contrast.full_clean()
    contrast.save()
    if claim is not None:
        claim.about.add(contrast.left, contrast.right)
    change_record(kind=ChangeEvent.Kind.CONTRAST, action=ChangeEvent.Action.EDITED, obj=contrast,
                  label=contrast.label, url=contrast.left.get_absolute_url(),
                  summary=axis if axis != before else "", user=user)
    return contrast


@transaction.atomic
def contrast_delete(*, contrast: Contrast, user: User | None = None, loaded_at: datetime | None = None) -> None:
    """Removes a contrast set up by mistake; the entry of recent changes keeps what it said. The claims stay as they
    are (about the two works still: the contrast made them so, and an editor may have meant it)."""
    contrast = Contrast.all_objects.select_for_update(of=("self",)).select_related(
        "left", "right", "left_component", "right_component").get(pk=contrast.pk)
    check_not_stale(contrast, loaded_at=loaded_at)
    change_record(kind=ChangeEvent.Kind.CONTRAST, action=ChangeEvent.Action.DELETED, obj=contrast,
                  label=contrast.label, url=contrast.left.get_absolute_url(), summary=contrast.axis, user=user)
    contrast.delete()
