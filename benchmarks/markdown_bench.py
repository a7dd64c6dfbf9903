"""How long the renderer takes on hostile Markdown: refusals (the complexity check) and the worst accepted texts.

    python benchmarks/markdown_bench.py [--repeat 3]

Prints the best of ``--repeat`` runs per input, in milliseconds. The check refuses in a linear scan; an
accepted text renders within the budget the README's limits section gives.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def best_ms(run: object, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()  # type: ignore[operator]
        times.append((time.perf_counter() - started) * 1000)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DATABASE_URL", "postgres://unused/unused")  # rendering reads no database
    import django

    django.setup()
    from wiki import markdown as wiki_markdown
    from wiki.devtools.hostile_markdown import ACCEPTED, REFUSED
    from wiki.markdown import MarkdownTooComplex
    from wiki.search.plain import plain_text

    def refuse(text: str) -> None:
        try:
            wiki_markdown.check_complexity(text)
        except MarkdownTooComplex:
            return
        raise SystemExit("accepted, though it should be refused")

    print(f"{'refused input':48} {'ms':>8}")
    for name, text in REFUSED.items():
        print(f"{name:48} {best_ms(partial(refuse, text), args.repeat):8.1f}")
    # rendered for the page, and read as plain text for the search index and its snippets
    print(f"\n{'accepted input':48} {'render ms':>10} {'plain ms':>9}")
    for name, text in ACCEPTED.items():
        rendered = best_ms(partial(wiki_markdown.render, text, sources={}, existing_pages=frozenset()), args.repeat)
        print(f"{name:48} {rendered:10.1f} {best_ms(partial(plain_text, text), args.repeat):9.1f}")


if __name__ == "__main__":
    main()
