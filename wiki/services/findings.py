"""Dismissing a consistency finding with a reason, and reopening it; both are recorded in recent changes."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from wiki.models import ChangeEvent, FindingDismissal
from wiki.models.rules import fit
from wiki.reports.consistency import Finding
from wiki.roles import User, account
from wiki.services.changes import change_record


class FindingAlreadyDismissed(Exception):
    pass


class FindingNotDismissed(Exception):
    pass


def finding_url(kind: str, key: str) -> str:
    return f"{reverse('wiki:consistency-report')}#finding-{kind}-{key}"


@transaction.atomic
def finding_dismiss(*, finding: Finding, reason: str, user: User | None) -> FindingDismissal:
    """Dismisses ``finding``; raises :class:`FindingAlreadyDismissed` when a dismissal is in force, and
    ``ValidationError`` for an empty or overlong reason. Nothing is written then."""
    dismissal = FindingDismissal(
        kind=finding.kind, key=finding.key, subject=fit(FindingDismissal, "subject", finding.subject),
        reason=reason.strip(), dismissed_by=account(user),
    )
    dismissal.full_clean(validate_constraints=False)
    try:
        with transaction.atomic():
            dismissal.save()
    except IntegrityError:
        raise FindingAlreadyDismissed(finding.key) from None
    change_record(kind=ChangeEvent.Kind.FINDING, action=ChangeEvent.Action.DISMISSED, obj=dismissal,
                  label=dismissal.subject, url=finding_url(finding.kind, finding.key), user=user, summary=dismissal.reason)
    return dismissal


@transaction.atomic
def finding_reopen(*, kind: str, key: str, user: User | None) -> FindingDismissal:
    """Puts the finding back among the open ones; the dismissal is kept, stamped with who reopened it and when.
    Raises :class:`FindingNotDismissed` when no dismissal is in force."""
    dismissal = FindingDismissal.objects.select_for_update().filter(kind=kind, key=key, reopened_at__isnull=True).first()
    if dismissal is None:
        raise FindingNotDismissed(key)
    dismissal.reopened_at = timezone.now()
    dismissal.reopened_by = account(user)
    dismissal.save(update_fields=["reopened_at", "reopened_by"])
    change_record(kind=ChangeEvent.Kind.FINDING, action=ChangeEvent.Action.REOPENED, obj=dismissal,
                  label=dismissal.subject, url=finding_url(kind, key), user=user, summary=dismissal.reason)
    return dismissal
