from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from wiki.forms.findings import FindingDismissForm, FindingForm
from wiki.reports.agreement import agreement_report_cached
from wiki.reports.consistency import consistency_report_cached
from wiki.reports.reviewed import (
    DISMISSED_PAGE_PARAM,
    FINDINGS_SHOWN,
    OPEN_PAGE_PARAM,
    SECTION_PARAM,
    NoSuchPage,
    ReviewedReport,
    ShownSection,
    consistency_report_reviewed,
    finding_place,
    findings_page,
)
from wiki.services.findings import (
    FindingAlreadyDismissed,
    FindingNotDismissed,
    finding_dismiss,
    finding_reopen,
)
from wiki.views.editing import editor_required


@require_safe
def consistency(request: HttpRequest) -> HttpResponse:
    """The report, the first findings of each section; with ``?section=``, one section's findings a page at a time."""
    report = consistency_report_reviewed()
    kind = request.GET.get(SECTION_PARAM)
    if kind is None:
        return _render(request, report)
    section = report.section(kind)
    if section is None:
        return _render(request, report, error=_("There is no section “%(section)s” in this report: choose one below.")
                       % {"section": kind}, status=400)
    try:
        shown = ShownSection(section, findings_page(section.open, request.GET.get(OPEN_PAGE_PARAM)),
                             findings_page(section.dismissed, request.GET.get(DISMISSED_PAGE_PARAM)))
    except NoSuchPage as error:
        return _render(request, report, only=ShownSection(section, findings_page(section.open, 1), findings_page(section.dismissed, 1)),
                       error=str(error), status=400)
    return _render(request, report, only=shown)


def _render(request: HttpRequest, report: ReviewedReport, *, only: ShownSection | None = None,
            failed: FindingForm | None = None, error: str = "", status: int = 200) -> HttpResponse:
    """The report's first findings of every section, or ``only`` one section's pages of findings."""
    shown = [only] if only else [ShownSection(section, findings_page(section.open, 1), findings_page(section.dismissed, 1)) for section in report.sections]
    context = {"report": report, "shown": shown, "one_section": only is not None, "failed": failed, "error": error,
               "failed_anchor": f"finding-{failed.data.get('kind')}-{failed.data.get('key')}" if failed else ""}
    return render(request, "wiki/reports/consistency.html", context, status=status)


def _report(request: HttpRequest, *, failed: FindingForm, error: str = "") -> HttpResponse:
    """The report after a refused dismissal or reopening: ``failed`` is the form, shown again at its finding (on the
    page of its section listing it) with ``error``."""
    report = consistency_report_reviewed()
    kind, key = failed.data.get("kind"), failed.data.get("key")
    place = report.place(kind, key) if isinstance(kind, str) and isinstance(key, str) else None
    section = report.section(kind) if place is not None and place[1] >= FINDINGS_SHOWN and isinstance(kind, str) else None
    only = None
    if place is not None and section is not None:
        dismissed, position = place
        page = position // FINDINGS_SHOWN + 1
        only = ShownSection(section, findings_page(section.open, 1 if dismissed else page), findings_page(section.dismissed, page if dismissed else 1))
    return _render(request, report, only=only, failed=failed, error=error, status=400)


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
    return redirect(finding_place(consistency_report_reviewed(), kind, key))


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
    return redirect(finding_place(consistency_report_reviewed(), kind, key))


@require_safe
@editor_required("wiki.change_page")
def classifier_agreement(request: HttpRequest) -> HttpResponse:
    return render(request, "wiki/reports/agreement.html", {"report": agreement_report_cached()})
