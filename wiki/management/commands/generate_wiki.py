from __future__ import annotations

import time
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import CommandError

from wiki.devtools.generate import wiki_generate
from wiki.management.base import WikiCommand
from wiki.management.commands.load_wiki import wiki_finish_loading
from wiki.management.progress import KindBars
from wiki.search.index import search_reindex_all


class Command(WikiCommand):
    help = (
        "Writes a large, realistic generated wiki (works, classifications, pages, claims, contrasts, questions) for "
        "benchmarks, then rebuilds the search index (every document: links to existing pages change their importance)."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--works", type=int, default=1000, help="How many works (sources); at least two. Default: 1000.")
        parser.add_argument("--claims", type=int, default=10000, help="How many claims, over all pages; at least one. Default: 10000.")
        parser.add_argument("--pages", type=int, default=None, help="Default: one page per ten claims.")
        parser.add_argument("--seed", type=int, default=0, help="The random seed: the same seed writes the same wiki. Default: 0.")
        parser.add_argument("--no-index", action="store_true", help="Leave the search index as it is (then run search_reindex).")

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        progress = options["verbosity"] > 0
        try:
            result = wiki_generate(
                works=options["works"], claims=options["claims"], pages=options["pages"], seed=options["seed"], progress=progress,
            )
        except ValueError as error:
            raise CommandError(str(error)) from error
        for line in result.lines():
            self.stdout.write(line)
        if options["no_index"]:
            self.stdout.write("Search index NOT built: search finds none of the generated objects until `manage.py search_reindex`.")
        else:
            with KindBars(label="search index: ", enabled=progress) as bars:
                indexed = search_reindex_all(progress=bars)
            self.stdout.write("Search index rebuilt: " + ", ".join(f"{n} {kind}s" for kind, n in indexed.items()))
        for line in wiki_finish_loading():
            self.stdout.write(line)
        self.stdout.write(f"in {time.perf_counter() - started:.1f}s")
