from __future__ import annotations

import time
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from wiki.devtools.generate import wiki_generate


class Command(BaseCommand):
    help = "Writes a large, realistic generated wiki (works, classifications, pages, claims, contrasts, questions) for benchmarks."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--works", type=int, default=1000)
        parser.add_argument("--claims", type=int, default=10000)
        parser.add_argument("--pages", type=int, default=None, help="Default: one page per ten claims.")
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        try:
            result = wiki_generate(
                works=options["works"], claims=options["claims"], pages=options["pages"], seed=options["seed"],
                progress=options["verbosity"] > 0,
            )
        except ValueError as error:
            raise CommandError(str(error)) from error
        for line in result.lines():
            self.stdout.write(line)
        self.stdout.write(f"in {time.perf_counter() - started:.1f}s")
