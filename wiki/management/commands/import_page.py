from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from wiki.management.base import WikiCommand
from wiki.management.files import read_bytes
from wiki.markdown import MarkdownTooComplex
from wiki.services.page_import import PageImportError, page_import, parse_page_file


class Command(WikiCommand):
    help = ("Imports page files (optional front matter, then Markdown with （来源：Title，locator） citations): a new page, or "
            "a new revision of the page with its slug unless its text is unchanged. Reports what was created and each cited "
            "title left unresolved; a file that cannot be read or imported is reported and changes nothing, the others "
            "are imported.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", type=Path, metavar="FILE")

    def handle(self, *args: Any, **options: Any) -> None:
        failed: list[str] = []
        for path in options["files"]:
            try:
                page_file = parse_page_file(read_bytes(path), filename=path.name)
                report = page_import(page_file=page_file)
            except CommandError as error:
                failed.append(str(error))
                continue
            except (PageImportError, MarkdownTooComplex) as error:
                problems = getattr(error, "problems", [str(error)])
                self.stderr.write(f"{path}: not imported, nothing changed:")
                for problem in problems:
                    self.stderr.write(f"  - {problem}")
                failed.append(f"{path}: {problems[0]}" if len(problems) == 1 else f"{path}: {len(problems)} problems")
                continue
            for line in report.lines():
                self.stdout.write(f"{path.name}: {line}")
        if failed:
            raise CommandError("; ".join(failed))
