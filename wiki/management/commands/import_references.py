from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.db import transaction

from wiki.management.base import WikiCommand
from wiki.management.files import read_bytes
from wiki.references.encoding import LEGACY_ENCODING, decode_reference_file
from wiki.references.errors import ReferencesRefused
from wiki.references.formats import FORMAT_BY_EXTENSION
from wiki.services.source_import import ImportStatus, sources_import


class _DryRun(Exception):
    pass


class Command(WikiCommand):
    help = ("Imports a reference file (BibTeX/biblatex .bib, CSL-JSON .json, RIS .ris; another extension is recognised "
            "by its content; UTF-8 or UTF-16, else read as Windows-1252, as an upload is) and prints the per-entry "
            "report: created, already in the wiki, or refused.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, metavar="FILE")
        parser.add_argument("--dry-run", action="store_true", help="report what would happen, then roll everything back")
        parser.add_argument("--quiet", action="store_true", help="print only the totals")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            # Read as an uploaded file is: its byte-order mark, else UTF-8, else Windows' Western encoding.
            text = decode_reference_file(read_bytes(path), fallback=LEGACY_ENCODING)
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
                    note = f"; {result.message}" if result.message else ""
                    self.stdout.write(f"{where}: created {result.source.short_name} ({result.source.slug}){note}")
                elif result.status == ImportStatus.DUPLICATE:
                    self.stdout.write(f"{where}: already in the wiki as {result.source.short_name} ({result.message})")
                else:
                    self.stdout.write(f"{where}: refused: {result.message}")
        counts = report.counts
        self.stdout.write(f"{report.format.label}: {len(report.results)} entries, {counts['created']} created, "
                          f"{counts['duplicate']} already in the wiki, {counts['refused']} refused")
