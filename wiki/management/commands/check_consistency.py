from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from wiki.reports.consistency import consistency_report


class Command(BaseCommand):
    help = "Lists where the wiki contradicts itself: verdicts vs claims, missing evidence, RL names, missing locators."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--fail", action="store_true", help="Exit with an error when anything is found.")

    def handle(self, *args: Any, **options: Any) -> None:
        report = consistency_report()
        for _key, title, findings in report.sections():
            self.stdout.write(f"{title}: {len(findings)}")
            for finding in findings:
                self.stdout.write(f"  - {finding.subject}: {finding.detail}")
        self.stdout.write(f"{report.total} findings")
        if options["fail"] and report.total:
            raise CommandError(f"{report.total} findings")
