from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from wiki.forms.findings import FindingDismissForm, FindingForm
from wiki.reports.agreement import agreement_report
from wiki.reports.consistency import consistency_report_cached
from wiki.reports.reviewed import consistency_report_reviewed
from wiki.services.findings import (
    FindingAlreadyDismissed,
    FindingNotDismissed,
    finding_dismiss,
    finding_reopen,
    finding_url,
)
from wiki.views.editing import editor_required


def consistency(request: HttpRequest) -> HttpResponse:
    return _report(request)


def _report(request: HttpRequest, *, failed: FindingForm | None = None, error: str = "") -> HttpResponse:
    """The report; after a refused dismissal, ``failed`` is the form, shown again at its finding with ``error``."""
    context = {"report": consistency_report_reviewed(), "failed": failed, "error": error,
               "failed_anchor": f"finding-{failed.data.get('kind')}-{failed.data.get('key')}" if failed else ""}
    return render(request, "wiki/reports/consistency.html", context, status=400 if failed else 200)


@require_POST
@editor_required("wiki.add_findingdismissal", forms=[FindingDismissForm])
def finding_dismiss_view(request: HttpRequest) -> HttpResponse:
    form = FindingDismissForm(request.POST)
    if not form.is_valid():
        return _report(request, failed=form)
    kind, key = form.cleaned_data["kind"], form.cleaned_data["key"]
    finding = consistency_report_cached().find(kind, key)
    if finding is None:
        return _report(request, failed=form, error=_("This finding is no longer in the report; nothing was dismissed."))
    try:
        finding_dismiss(finding=finding, reason=form.cleaned_data["reason"], user=request.user)
    except FindingAlreadyDismissed:
        return _report(request, failed=form, error=_("This finding was dismissed already; nothing was changed."))
    except ValidationError as error:
        return _report(request, failed=form, error=" ".join(error.messages))
    messages.success(request, _("Dismissed “%(subject)s”: it is listed with the reason under the section's dismissed findings.")
                     % {"subject": finding.subject})
    return redirect(finding_url(kind, key))


@require_POST
@editor_required("wiki.change_findingdismissal", forms=[FindingForm])
def finding_reopen_view(request: HttpRequest) -> HttpResponse:
    form = FindingForm(request.POST)
    if not form.is_valid():
        return _report(request, failed=form, error=_("No such finding; nothing was reopened."))
    kind, key = form.cleaned_data["kind"], form.cleaned_data["key"]
    try:
        dismissal = finding_reopen(kind=kind, key=key, user=request.user)
    except FindingNotDismissed:
        return _report(request, failed=form, error=_("This finding is not dismissed; nothing was reopened."))
    messages.success(request, _("Reopened “%(subject)s”: it is listed among the open findings again.") % {"subject": dismissal.subject})
    return redirect(finding_url(kind, key))


@editor_required("wiki.change_page")
def classifier_agreement(request: HttpRequest) -> HttpResponse:
    return render(request, "wiki/reports/agreement.html", {"report": agreement_report()})
