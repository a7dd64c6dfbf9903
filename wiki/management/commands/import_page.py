from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from wiki.markdown import MarkdownTooComplex
from wiki.services.page_import import PageImportError, page_import, parse_page_file


class Command(BaseCommand):
    help = "Imports a page file (front matter + Markdown with （来源：Title，locator） citations) as a new revision."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        failed = False
        for path in options["files"]:
            try:
                page_file = parse_page_file(path.read_bytes(), filename=path.name)
                report = page_import(page_file=page_file)
            except FileNotFoundError:
                self.stderr.write(f"{path}: no such file")
                failed = True
                continue
            except (PageImportError, MarkdownTooComplex) as error:
                problems = getattr(error, "problems", [str(error)])
                self.stderr.write(f"{path}: not imported, nothing changed:")
                for problem in problems:
                    self.stderr.write(f"  - {problem}")
                failed = True
                continue
            for line in report.lines():
                self.stdout.write(f"{path.name}: {line}")
        if failed:
            raise CommandError("some files were not imported")
