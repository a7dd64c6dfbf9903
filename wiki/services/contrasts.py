"""Setting two works (or components) against each other on an axis."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from wiki.models import ChangeEvent, Claim, Component, Contrast, Source
from wiki.roles import User
from wiki.services.changes import change_record


def contrast_find(
    *, left: Source | None, right: Source | None, left_component: Component | None = None,
    right_component: Component | None = None,
) -> Contrast | None:
    """The contrast of these two works (or components) in either order, if there is one."""
    one_way = Q(left=left, left_component=left_component, right=right, right_component=right_component)
    other_way = Q(left=right, left_component=right_component, right=left, right_component=left_component)
    return Contrast.objects.filter(one_way | other_way).first()


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
    # Serialised, so that two editors adding the same contrast at once get a message, not a constraint error.
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext('wiki.contrast.create'))")
    if contrast_find(left=left, left_component=left_component, right=right, right_component=right_component) is not None:
        raise ValidationError(_("This contrast exists already."), code="exists")
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
