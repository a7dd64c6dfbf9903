from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from wiki.search.index import search_reindex_all


class Command(BaseCommand):
    help = "Rebuild the search index of pages, claims, sources and open questions."

    def handle(self, *args: object, **options: object) -> None:
        started = time.perf_counter()
        counts = search_reindex_all()
        elapsed = time.perf_counter() - started
        summary = ", ".join(f"{n} {kind}s" for kind, n in counts.items())
        self.stdout.write(f"Indexed {summary} in {elapsed:.1f} s.")
