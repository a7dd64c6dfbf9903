"""The consistency report as editors have reviewed it: each section's open findings, then those dismissed with why.

A page shows at most ``FINDINGS_SHOWN`` findings of each list of a section; the rest are read a page of as many at a
time, at :func:`finding_place`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.paginator import InvalidPage, Page, Paginator
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from wiki.models import FindingDismissal
from wiki.reports.consistency import ConsistencyReport, Finding, consistency_report, consistency_report_cached

# How many findings of each list (open, dismissed) of a section the report shows, and a page of one section.
FINDINGS_SHOWN = 50
# The query parameters of a section's pages: which section, and the page of its open and of its dismissed findings.
SECTION_PARAM, OPEN_PAGE_PARAM, DISMISSED_PAGE_PARAM = "section", "p", "dp"


@dataclass(frozen=True)
class DismissedFinding:
    finding: Finding
    dismissal: FindingDismissal


@dataclass(frozen=True)
class ReviewedSection:
    key: str
    title: str
    open: list[Finding]
    dismissed: list[DismissedFinding]


@dataclass(frozen=True)
class ReviewedReport:
    sections: list[ReviewedSection]

    def section(self, key: str) -> ReviewedSection | None:
        return next((section for section in self.sections if section.key == key), None)

    def place(self, kind: str, key: str) -> tuple[bool, int] | None:
        """Where the finding is listed: whether among the dismissed, and its position there; None when nowhere."""
        section = self.section(kind)
        if section is None:
            return None
        for position, finding in enumerate(section.open):
            if finding.key == key:
                return False, position
        for position, item in enumerate(section.dismissed):
            if item.finding.key == key:
                return True, position
        return None

    @property
    def open_total(self) -> int:
        return sum(len(section.open) for section in self.sections)

    @property
    def dismissed_total(self) -> int:
        return sum(len(section.dismissed) for section in self.sections)


def reviewed(report: ConsistencyReport, dismissals: Iterable[FindingDismissal]) -> ReviewedReport:
    """``report`` split by ``dismissals`` in force; a dismissal whose finding is gone (fixed since) shows nowhere."""
    by_finding = {(dismissal.kind, dismissal.key): dismissal for dismissal in dismissals}
    sections = []
    for kind, title, findings in report.sections():
        open_findings: list[Finding] = []
        dismissed: list[DismissedFinding] = []
        for finding in findings:
            dismissal = by_finding.get((kind, finding.key))
            if dismissal is None:
                open_findings.append(finding)
            else:
                dismissed.append(DismissedFinding(finding, dismissal))
        sections.append(ReviewedSection(kind, title, open_findings, dismissed))
    return ReviewedReport(sections)


def consistency_report_reviewed(*, cached: bool = True) -> ReviewedReport:
    """The findings (cached while the wiki is unchanged) and the dismissals in force, read fresh: one query more."""
    report = consistency_report_cached() if cached else consistency_report()
    return reviewed(report, FindingDismissal.objects.active())


def section_url(kind: str, *, open_page: int = 1, dismissed_page: int = 1) -> str:
    """The address of a page of one section's findings."""
    params: dict[str, str | int] = {SECTION_PARAM: kind}
    if open_page > 1:
        params[OPEN_PAGE_PARAM] = open_page
    if dismissed_page > 1:
        params[DISMISSED_PAGE_PARAM] = dismissed_page
    return f"{reverse('wiki:consistency-report')}?{urlencode(params)}"


def finding_place(report: ReviewedReport, kind: str, key: str) -> str:
    """The address at which the finding is shown: the report when among the first of its list, otherwise the page of
    its section listing it; the report when it is listed nowhere."""
    anchor = f"#finding-{kind}-{key}"
    place = report.place(kind, key)
    if place is None or place[1] < FINDINGS_SHOWN:
        return reverse("wiki:consistency-report") + anchor
    dismissed, position = place
    page = position // FINDINGS_SHOWN + 1
    return (section_url(kind, dismissed_page=page) if dismissed else section_url(kind, open_page=page)) + anchor


@dataclass(frozen=True)
class ShownSection:
    """A section with the page of its open findings and of its dismissed ones shown."""

    section: ReviewedSection
    open: Page[Finding]
    dismissed: Page[DismissedFinding]


class NoSuchPage(Exception):
    """A page number a section's findings do not have; the message says which they have."""


def findings_page(items: list[Any], number: str | int | None) -> Page[Any]:
    """Page ``number`` (the first when none) of a section's open or dismissed findings; raises :class:`NoSuchPage`."""
    paginator = Paginator(items, FINDINGS_SHOWN)
    try:
        return paginator.page(number or 1)
    except InvalidPage:
        raise NoSuchPage(_("“%(page)s” is not a page of this section: its pages are numbered 1 to %(count)s.")
                         % {"page": number, "count": paginator.num_pages}) from None
