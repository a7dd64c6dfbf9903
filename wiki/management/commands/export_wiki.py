from pathlib import Path
from typing import Any

from django.core.management.base import CommandParser

from wiki.management.base import WikiCommand
from wiki.management.files import check_writable, write_errors
from wiki.services.backup import FORMAT_VERSION, wiki_export


class Command(WikiCommand):
    help = ("Writes the whole wiki (pages with their revisions, sources, claims, classifications with their history, "
            "contrasts, questions, the changes feed and the accounts they name, without passwords) to FILE as JSON "
            "lines, gzip-compressed when FILE ends in .gz; an existing FILE is replaced once the export is complete, and "
            "left as it was when the export fails. -v 2 lists the rows per table.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, metavar="FILE")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        check_writable(path)
        try:
            report = wiki_export(path=path)
        except OSError as error:
            raise write_errors(path, error) from None
        total = sum(report.counts.values())
        self.stdout.write(f"{path}: backup format version {FORMAT_VERSION}, {total} rows")
        if options["verbosity"] > 1:
            for label, n in report.counts.items():
                self.stdout.write(f"  {label}: {n}")
