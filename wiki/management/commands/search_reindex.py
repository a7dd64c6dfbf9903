from __future__ import annotations

import time
from typing import Any

from wiki.management.base import WikiCommand
from wiki.management.progress import KindBars
from wiki.search.index import search_reindex_all


class Command(WikiCommand):
    help = ("Rebuild the search index of pages, claims, sources and open questions (and their importance order), with a "
            "progress bar per kind (-v 0 hides them).")

    def handle(self, *args: object, **options: Any) -> None:
        started = time.perf_counter()
        with KindBars(enabled=options["verbosity"] > 0) as bars:
            counts = search_reindex_all(progress=bars)
        elapsed = time.perf_counter() - started
        summary = ", ".join(f"{n} {kind}s" for kind, n in counts.items())
        self.stdout.write(f"Indexed {summary} in {elapsed:.1f} s.")
