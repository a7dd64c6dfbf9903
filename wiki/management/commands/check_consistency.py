from typing import Any

from django.core.management.base import CommandError, CommandParser

from wiki.management.base import WikiCommand
from wiki.reports.reviewed import consistency_report_reviewed


class Command(WikiCommand):
    help = ("Lists where the wiki contradicts itself: verdicts vs claims, missing evidence, RL names, missing locators, "
            "one-sided contrasts; then the findings editors dismissed, with their reasons.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--fail", action="store_true", help="Exit with an error when an open (not dismissed) finding is left.")

    def handle(self, *args: Any, **options: Any) -> None:
        report = consistency_report_reviewed(cached=False)
        for section in report.sections:
            self.stdout.write(f"{section.title}: {len(section.open)} ({len(section.dismissed)} dismissed)")
            for finding in section.open:
                self.stdout.write(f"  - {finding.subject}: {finding.detail}")
            for item in section.dismissed:
                who = item.dismissal.dismissed_by.username if item.dismissal.dismissed_by else "seed"
                self.stdout.write(f"  ~ dismissed {item.finding.subject}: {item.finding.detail} — {who}: {item.dismissal.reason}")
        self.stdout.write(f"{report.open_total} open findings, {report.dismissed_total} dismissed")
        if options["fail"] and report.open_total:
            raise CommandError(f"{report.open_total} open findings")
