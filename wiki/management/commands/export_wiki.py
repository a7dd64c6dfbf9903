from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from wiki.services.backup import FORMAT_VERSION, wiki_export


class Command(BaseCommand):
    help = ("Writes the whole wiki (pages with their revisions, sources, claims, classifications with their history, "
            "contrasts, questions, the changes feed and the accounts they name, without passwords) to FILE as JSON "
            "lines, gzip-compressed when FILE ends in .gz.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        report = wiki_export(path=path)
        total = sum(report.counts.values())
        self.stdout.write(f"{path}: backup format version {FORMAT_VERSION}, {total} rows")
        if options["verbosity"] > 1:
            for label, n in report.counts.items():
                self.stdout.write(f"  {label}: {n}")
