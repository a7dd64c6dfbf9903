from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import CommandError, CommandParser
from django.db import transaction

from wiki.management.base import WikiCommand
from wiki.management.files import read_bytes
from wiki.references.encoding import LEGACY_ENCODING, decode_reference_file
from wiki.references.errors import ReferencesRefused
from wiki.references.formats import FORMAT_BY_EXTENSION, MAX_IMPORT_ENTRIES
from wiki.references.updates import FieldUpdate
from wiki.services.source_import import ImportReport, ImportResult, ImportStatus, sources_import
from wiki.services.source_updates import source_take_updates
from wiki.services.sources import SourceDeleted, SourceDuplicate

_IDENTIFIERS = {"arxiv_id": "arXiv ID", "doi": "DOI"}


class _DryRun(Exception):
    pass


def _shown(update: FieldUpdate) -> str:
    def cut(value: str) -> str:
        return value if len(value) <= 80 else value[:79] + "…"

    was = f"“{cut(update.current)}”" if update.current else "empty"
    return f"{update.label}: the file gives “{cut(update.offered)}” (the wiki has {was})"


class Command(WikiCommand):
    help = ("Imports a reference file (BibTeX/biblatex .bib, CSL-JSON .json, RIS .ris; another extension is recognised "
            "by its content; UTF-8 or UTF-16, else read as Windows-1252, as an upload is) and prints the per-entry "
            "report: created, already in the wiki (with the fields the file gives otherwise), or refused. Any number "
            f"of entries, imported {MAX_IMPORT_ENTRIES:,} at a time in one transaction.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, metavar="FILE")
        parser.add_argument("--dry-run", action="store_true", help="report what would happen, then roll everything back")
        parser.add_argument("--quiet", action="store_true", help="print only the totals")
        parser.add_argument(
            "--add-missing-identifiers", action="store_true",
            help="add to a work already in the wiki the arXiv ID or DOI its other version in the file has and it lacks")
        parser.add_argument(
            "--update", nargs="?", const="empty", choices=["empty", "all"], metavar="empty|all",
            help="take into each work already in the wiki the fields the file gives otherwise: with no value (or "
                 "'empty') only those the work has empty, with 'all' every field offered, in file order")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            # Read as an uploaded file is: its byte-order mark, else UTF-8, else Windows' Western encoding.
            text = decode_reference_file(read_bytes(path), fallback=LEGACY_ENCODING)
            with transaction.atomic():
                report = sources_import(text=text, fmt=FORMAT_BY_EXTENSION.get(path.suffix.lower()), max_entries=None,
                                        file_name=path.name)
                taken = self._take(report, options)
                self._print(report, taken, quiet=options["quiet"])
                if options["dry_run"]:
                    raise _DryRun
                if report.refuses_all:
                    raise CommandError(f"{path}: {report.nothing_imported}")
        except _DryRun:
            self.stdout.write("dry run: nothing was saved")
        except ReferencesRefused as error:
            raise CommandError(f"{path}: {error}") from None

    def _take(self, report: ImportReport, options: dict[str, Any]) -> dict[int, str]:
        """Takes the fields asked for into the works already in the wiki; what happened, by result."""
        mode, identifiers = options["update"], options["add_missing_identifiers"]
        said: dict[int, str] = {}
        if not mode and not identifiers:
            return said
        for index, result in enumerate(report.results):
            if result.source is None or result.status != ImportStatus.DUPLICATE or not result.updates:
                continue
            chosen = [u for u in result.updates if mode == "all" or (u.fills and (mode or u.name in _IDENTIFIERS))]
            if not chosen:
                continue
            try:
                saved = source_take_updates(source=result.source, values={u.name: u.offered for u in chosen},
                                            only_empty=mode != "all", record=report.record)
            except SourceDuplicate as duplicate:
                said[index] = f"not updated: {duplicate.reason} is {duplicate.source.short_name}"
            except (SourceDeleted, ValidationError) as error:
                said[index] = "not updated: " + "; ".join(error.messages)
            else:
                said[index] = "nothing to update" if saved.unchanged else "updated: " + ", ".join(u.label for u in chosen)
        return said

    def _print(self, report: ImportReport, taken: dict[int, str], *, quiet: bool) -> None:
        if not quiet:
            for index, result in enumerate(report.results):
                self._print_result(result, taken.get(index, ""))
        counts = report.counts
        offered = sum(1 for result in report.results if result.updates)
        self.stdout.write(f"{report.format.label}: {len(report.results)} entries, {counts['created']} created, "
                          f"{counts['duplicate']} already in the wiki ({offered} with fields to update), "
                          f"{counts['refused']} refused")

    def _print_result(self, result: ImportResult, taken: str) -> None:
        where = f"line {result.line}: {result.label}"
        source = result.source
        if result.status == ImportStatus.CREATED and source is not None:
            note = f"; {result.message}" if result.message else ""
            self.stdout.write(f"{where}: created {source.short_name} ({source.slug}){note}")
            if result.possible is not None:
                self.stdout.write(f"  it may be the same work as {result.possible.short_name} ({result.possible.slug}): "
                                  f"{result.possible_reason}; merge them if it is")
        elif result.status == ImportStatus.DUPLICATE and source is not None:
            version = ""
            if result.missing:
                lacks = " and ".join(f"{_IDENTIFIERS[name]} {value}" for name, value in result.missing.items())
                version = f"; another version of it, which lacks {lacks}"
            self.stdout.write(f"{where}: already in the wiki as {source.short_name} ({result.message}){version}")
            for update in result.updates:
                self.stdout.write(f"  {_shown(update)}")
            if taken:
                self.stdout.write(f"  {taken}")
        else:
            self.stdout.write(f"{where}: refused: {result.message}")
        for warning in result.warnings:
            self.stdout.write(f"  warning: {warning}")
