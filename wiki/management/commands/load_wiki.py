from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser

from wiki.management.base import WikiCommand
from wiki.management.files import check_directory
from wiki.services.page_import import PageImportError
from wiki.services.seed import SeedError, seed_load


class Command(WikiCommand):
    help = ("Loads the Agentic RL wiki (sources, pages, classifications, contrasts, questions, the glossary and the "
            "findings its editors dismissed) from fixtures/, in one transaction. Idempotent: what did not change is "
            "not written again.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--directory", type=Path, default=Path(settings.BASE_DIR) / "fixtures",
                            help="where the fixtures are (default: the project's fixtures/)")

    def handle(self, *args: Any, **options: Any) -> None:
        directory: Path = options["directory"]
        check_directory(directory)
        try:
            report = seed_load(directory=directory)
        except (SeedError, PageImportError) as error:
            raise CommandError(f"the wiki was not loaded, nothing changed: {error}") from None
        for line in report.lines:
            self.stdout.write(line)
