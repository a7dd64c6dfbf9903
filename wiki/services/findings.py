"""Dismissing a consistency finding with a reason, and reopening it; both are recorded in recent changes."""

from __future__ import annotations

from collections.abc import Callable

from django.db import IntegrityError, connection, transaction
from django.urls import reverse
from django.utils import timezone

from wiki.models import ChangeEvent, FindingDismissal
from wiki.models.findings import finding_etag
from wiki.models.rules import fit
from wiki.reports.consistency import Finding
from wiki.roles import User, account
from wiki.services.changes import change_record


class FindingAlreadyDismissed(Exception):
    pass


class FindingNotDismissed(Exception):
    pass


# What a conditional dismissal or reopening checks under the lock: the ETag of the finding's state then.
FindingPrecondition = Callable[[str], None]


def finding_url(kind: str, key: str) -> str:
    return f"{reverse('wiki:consistency-report')}#finding-{kind}-{key}"


def _lock_finding(kind: str, key: str, precondition: FindingPrecondition | None) -> FindingDismissal | None:
    """Until the transaction ends, no one else dismisses or reopens the finding (a lock on its state, which may be no
    row); then ``precondition`` is called with the ETag of its state now. Returns the dismissal in force, if any."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext('wiki.finding'), hashtext(%s))", [f"{kind}:{key}"])
    dismissal = FindingDismissal.objects.select_for_update().filter(kind=kind, key=key, reopened_at__isnull=True).first()
    if precondition is not None:
        precondition(finding_etag(kind, key, None if dismissal is None else dismissal.pk))
    return dismissal


@transaction.atomic
def finding_dismiss(*, finding: Finding, reason: str, user: User | None,
                    precondition: FindingPrecondition | None = None) -> FindingDismissal:
    """Dismisses ``finding``; raises :class:`FindingAlreadyDismissed` when a dismissal is in force, and
    ``ValidationError`` for an empty or overlong reason. Nothing is written then, nor when ``precondition`` (an
    If-Match), checked under the finding's lock, raises."""
    dismissal = FindingDismissal(
        kind=finding.kind, key=finding.key, subject=fit(FindingDismissal, "subject", finding.subject),
        reason=reason.strip(), dismissed_by=account(user),
    )
    dismissal.full_clean(validate_constraints=False)
    if _lock_finding(finding.kind, finding.key, precondition) is not None:
        raise FindingAlreadyDismissed(finding.key)
    try:
        with transaction.atomic():
            dismissal.save()
    except IntegrityError:
        raise FindingAlreadyDismissed(finding.key) from None
    change_record(kind=ChangeEvent.Kind.FINDING, action=ChangeEvent.Action.DISMISSED, obj=dismissal,
                  label=dismissal.subject, url=finding_url(finding.kind, finding.key), user=user, summary=dismissal.reason)
    return dismissal


@transaction.atomic
def finding_reopen(*, kind: str, key: str, user: User | None,
                   precondition: FindingPrecondition | None = None) -> FindingDismissal:
    """Puts the finding back among the open ones; the dismissal is kept, stamped with who reopened it and when.
    Raises :class:`FindingNotDismissed` when no dismissal is in force; ``precondition`` as for :func:`finding_dismiss`."""
    dismissal = _lock_finding(kind, key, precondition)
    if dismissal is None:
        raise FindingNotDismissed(key)
    dismissal.reopened_at = timezone.now()
    dismissal.reopened_by = account(user)
    dismissal.save(update_fields=["reopened_at", "reopened_by"])
    change_record(kind=ChangeEvent.Kind.FINDING, action=ChangeEvent.Action.REOPENED, obj=dismissal,
                  label=dismissal.subject, url=finding_url(kind, key), user=user, summary=dismissal.reason)
    return dismissal
