from typing import Any

from django.core.management.base import CommandError, CommandParser

from wiki.management.base import WikiCommand
from wiki.services.sort_keys import sort_keys_rekey


class Command(WikiCommand):
    help = (
        "Makes every name's stored sort key again (a Chinese name is read in pinyin: after an upgrade of pypinyin, "
        "it may read otherwise) and writes only those that changed, a batch at a time; prints how many rows of each "
        "kind were re-keyed (-v 0: the total alone). Running it again changes nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check",
            action="store_true",
            help="Write nothing: print how many rows have a stale key, and fail if any has (for a deploy).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        check = options["check"]
        results = sort_keys_rekey(check=check)
        done = "with a stale sort key" if check else "re-keyed"
        if options["verbosity"] > 0:
            for result in results:
                self.stdout.write(f"{result.model}: {result.stale:,} of {result.rows:,} rows {done}")
        stale, rows = sum(result.stale for result in results), sum(result.rows for result in results)
        if check and stale:
            raise CommandError(f"{stale:,} of {rows:,} rows have a stale sort key: run manage.py rekey_names")
        self.stdout.write(f"{stale:,} of {rows:,} rows {done}" + ("" if stale else ": every sort key is up to date"))
