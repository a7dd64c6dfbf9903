from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from django.db import connection

from wiki.management.base import WikiCommand
from wiki.management.files import check_directory
from wiki.services.page_import import PageImportError
from wiki.services.seed import SeedError, seed_load
from wiki.suggestions import suggestions_refresh


def wiki_tables_analyze() -> list[str]:
    """Runs ANALYZE on the wiki's tables (many-to-many ones included) and answers their names.

    Without fresh statistics, as where autovacuum is off, the planner takes a freshly loaded table for an empty one
    and joins it by nested loops: a filtered list of a few thousand works took minutes instead of milliseconds.
    """
    tables = sorted({model._meta.db_table for model in apps.get_app_config("wiki").get_models(include_auto_created=True)})
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE " + ", ".join(connection.ops.quote_name(table) for table in tables))
    return tables


def wiki_finish_loading() -> list[str]:
    """What a command that wrote a wiki does last: the planner's statistics and every work's stored suggestion (the
    requests that list or report on many works then classify none). Answers the lines to print."""
    tables = wiki_tables_analyze()
    suggestions_refresh(limit=None)
    return [f"Analyzed {len(tables)} tables; stored suggestions up to date."]


class Command(WikiCommand):
    help = ("Loads the Agentic RL wiki (sources, pages, classifications, contrasts, questions, the glossary and the "
            "findings its editors dismissed) from fixtures/, in one transaction. Idempotent: what did not change is "
            "not written again, and what the wiki's editors changed or deleted since is left as they left it.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--directory", type=Path, default=Path(settings.BASE_DIR) / "fixtures",
                            help="where the fixtures are (default: the project's fixtures/)")
        parser.add_argument("--overwrite", action="store_true",
                            help="write the fixtures over what the wiki's editors changed too (their changes stay in "
                                 "each record's history)")

    def handle(self, *args: Any, **options: Any) -> None:
        directory: Path = options["directory"]
        check_directory(directory)
        try:
            report = seed_load(directory=directory, overwrite=options["overwrite"])
        except (SeedError, PageImportError) as error:
            raise CommandError(f"the wiki was not loaded, nothing changed: {error}") from None
        for line in report.lines:
            self.stdout.write(line)
        for line in wiki_finish_loading():
            self.stdout.write(line)
