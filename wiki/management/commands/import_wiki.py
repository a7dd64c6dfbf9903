from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from wiki.management.base import WikiCommand
from wiki.management.commands.load_wiki import wiki_finish_loading
from wiki.management.files import check_readable
from wiki.services.backup import BackupRefused, wiki_import


class Command(WikiCommand):
    help = ("Restores a backup written by export_wiki (gzip-compressed when FILE ends in .gz) into an empty, migrated "
            "database, in one transaction: a refused or failed import writes nothing. Accounts come back without "
            "passwords. Then analyzes the tables and stores every work's suggestion.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, metavar="FILE")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        check_readable(path)
        try:
            report = wiki_import(path=path)
        except BackupRefused as error:
            raise CommandError(f"{path}: {error}; nothing was imported") from None
        total = sum(report.counts.values())
        self.stdout.write(f"{path}: {total} rows restored, {report.pages_rendered} pages rendered anew, search index rebuilt")
        if options["verbosity"] > 1:
            for label, n in report.counts.items():
                self.stdout.write(f"  {label}: {n}")
        for line in wiki_finish_loading():
            self.stdout.write(line)
        self.stdout.write("Accounts have no password: set one with `manage.py changepassword USERNAME`.")
