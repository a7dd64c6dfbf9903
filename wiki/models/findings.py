"""An editor's decision that a consistency finding is not a mistake, with the reason; reopening keeps the record."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext
from django_stubs_ext import StrOrPromise

from wiki.models.labels import field_label
from wiki.models.rules import validate_some_text

MAX_REASON_CHARS = 2_000


class FindingDismissalQuerySet(models.QuerySet["FindingDismissal"]):
    def active(self) -> FindingDismissalQuerySet:
        """Dismissals in force (not reopened), with who dismissed joined."""
        return self.filter(reopened_at__isnull=True).select_related("dismissed_by").only(
            "id", "kind", "key", "subject", "reason", "dismissed_at", "dismissed_by__username"
        )


class FindingDismissal(models.Model):
    """A finding of the consistency report that an editor looked at and dismissed.

    ``kind`` is the report's section and ``key`` names the objects the finding concerns (``contrast-5-claim-40``),
    so a dismissal holds whenever the report is computed again and lapses when what it concerns changes.
    Reopening stamps the row instead of deleting it; a finding dismissed again gets a new row.
    """

    kind = models.CharField(field_label("kind"), max_length=40)
    key = models.CharField(_("Finding key"), max_length=200)
    subject = models.CharField(_("What it concerns"), max_length=300)
    reason = models.TextField(_("reason"), validators=[MaxLengthValidator(MAX_REASON_CHARS), validate_some_text])
    dismissed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                     verbose_name=_("Dismissed by"))
    dismissed_at = models.DateTimeField(_("Dismissed at"), auto_now_add=True)
    reopened_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                    verbose_name=_("Reopened by"))
    reopened_at = models.DateTimeField(_("Reopened at"), null=True, blank=True)

    objects = FindingDismissalQuerySet.as_manager()

    class Meta:
        ordering = ["-dismissed_at", "-id"]
        verbose_name = _("Dismissed finding")
        verbose_name_plural = _("Dismissed findings")
        constraints = [
            models.UniqueConstraint(fields=["kind", "key"], condition=Q(reopened_at__isnull=True), name="one_dismissal_in_force"),
        ]

    def __str__(self) -> str:
        """The finding's kind, as the report names its section, and what it concerns."""
        return f"{self.kind_label}{pgettext('label separator', ': ')}{self.subject}"

    @property
    def kind_label(self) -> StrOrPromise:
        """The finding's kind as the consistency report names its section (the stored code for a kind it no longer
        has)."""
        from wiki.reports.consistency import FINDING_KINDS  # the report reads these rows

        return dict(FINDING_KINDS).get(self.kind, self.kind)


def finding_etag(kind: str, key: str, dismissal_id: int | None) -> str:
    """The strong ETag of a finding's state: open, or dismissed by the dismissal ``dismissal_id`` (a finding dismissed
    again after it was reopened has another), for a conditional dismissal or reopening."""
    state = f"{kind}\n{key}\n{'open' if dismissal_id is None else dismissal_id}"
    return f'"{hashlib.md5(state.encode(), usedforsecurity=False).hexdigest()}"'
