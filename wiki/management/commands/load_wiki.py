from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from wiki.services.page_import import PageImportError
from wiki.services.seed import SeedError, seed_load


class Command(BaseCommand):
    help = "Loads the Agentic RL wiki (pages, sources, classifications, contrasts, questions) from fixtures/. Idempotent."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--directory", type=Path, default=Path(settings.BASE_DIR) / "fixtures")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = seed_load(directory=options["directory"])
        except (SeedError, PageImportError) as error:
            raise CommandError(f"the wiki was not loaded, nothing changed: {error}") from None
        for line in report.lines:
            self.stdout.write(line)
