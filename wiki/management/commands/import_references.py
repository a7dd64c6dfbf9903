from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from wiki.references.errors import ReferencesRefused
from wiki.references.formats import FORMAT_BY_EXTENSION
from wiki.services.source_import import ImportStatus, sources_import


class _DryRun(Exception):
    pass


class Command(BaseCommand):
    help = "Imports a reference file (BibTeX/biblatex .bib, CSL-JSON .json, RIS .ris) and prints the per-entry report."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--dry-run", action="store_true", help="report what would happen, then roll everything back")
        parser.add_argument("--quiet", action="store_true", help="print only the totals")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            text = path.read_bytes().decode("utf-8-sig", errors="replace")
        except FileNotFoundError:
            raise CommandError(f"{path}: no such file") from None
        try:
            with transaction.atomic():
                report = sources_import(text=text, fmt=FORMAT_BY_EXTENSION.get(path.suffix.lower()))
                if options["dry_run"]:
                    self._print(report, options["quiet"])
                    raise _DryRun
        except _DryRun:
            self.stdout.write("dry run: nothing was saved")
            return
        except ReferencesRefused as error:
            raise CommandError(f"{path}: {error}") from None
        self._print(report, options["quiet"])

    def _print(self, report: Any, quiet: bool) -> None:
        if not quiet:
            for result in report.results:
                where = f"line {result.line}: {result.label}"
                if result.status == ImportStatus.CREATED:
                    self.stdout.write(f"{where}: created {result.source.short_name} ({result.source.slug})")
                elif result.status == ImportStatus.DUPLICATE:
                    self.stdout.write(f"{where}: already in the wiki as {result.source.short_name} ({result.message})")
                else:
                    self.stdout.write(f"{where}: refused: {result.message}")
        counts = report.counts
        self.stdout.write(f"{report.format.label}: {len(report.results)} entries, {counts['created']} created, "
                          f"{counts['duplicate']} already in the wiki, {counts['refused']} refused")
