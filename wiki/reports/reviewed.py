"""The consistency report as editors have reviewed it: each section's open findings, then those dismissed with why."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from wiki.models import FindingDismissal
from wiki.reports.consistency import ConsistencyReport, Finding, consistency_report, consistency_report_cached


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
