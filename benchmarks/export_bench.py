"""How long the BibTeX and CSL-JSON exports take on every work of the database, as a ratio to writing them bare.

    DATABASE_URL=postgres://… python benchmarks/export_bench.py [--repeat 5] [--zotero]

Reads the works the way the export endpoints do (``Source.objects.for_export()``, one query), then times writing
them in each format, best of ``--repeat``, in CPU time of this process (a loaded machine's other work is not
counted) and in wall-clock time. The ratio divides by a bare pass over the same rows (each field written as
``name = {value}``, nothing escaped or split) measured in the same run, so that figures taken on different machines
or loads compare. With ``--zotero`` each work is first given, in memory, what a Zotero/Better BibTeX record brings
(an arXiv ID, a DOI, a URL with an underscore, pages, volume, publisher, keywords, an organisation and a particle
among the authors, LaTeX specials in the title), so that the escaping and the details weigh as in a librarian's
export.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def best_ms(run: Callable[[], object], repeat: int) -> tuple[float, float]:
    """The best CPU time and the best wall-clock time of ``repeat`` runs, in milliseconds."""
    cpu, wall = [], []
    for _ in range(repeat):
        started, started_cpu = time.perf_counter(), time.process_time()
        run()
        cpu.append((time.process_time() - started_cpu) * 1000)
        wall.append((time.perf_counter() - started) * 1000)
    return min(cpu), min(wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--zotero", action="store_true", help="give each work a Zotero record's fields, in memory")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from wiki.models import Source
    from wiki.references.bibtex_export import dump_bibtex
    from wiki.references.csl import dump_csl_json

    sources = list(Source.objects.for_export())
    if args.zotero:
        for n, source in enumerate(sources):
            source.title += " & {Tree-GRPO}: 100% of $x_i$ for #1 — Vulić"
            source.authors += "; {World Health Organization}; van Beethoven, Ludwig; Smith, Jr., John"
            source.arxiv_id = f"{2300 + n % 99:04d}.{n:05d}"
            source.doi = f"10.1000/x_{n}"
            source.url = f"https://example.org/paper_{n}?a=b&c=d"
            source.bibliographic = {"pages": "12--34", "volume": str(n % 40), "publisher": "ACM & IEEE", "month": "8"}
            if hasattr(source, "extra_fields"):
                source.extra_fields = {"keywords": "agents, reinforcement learning", "langid": "english",
                                       "primaryclass": "cs.LG"}
    print(f"{len(sources):,} works{' with Zotero fields' if args.zotero else ''}, best of {args.repeat}")
    names = ("title", "short_name", "authors", "year", "venue", "url", "arxiv_id", "doi", "abstract", "notes")

    def bare() -> str:
        return "".join(f"@misc{{{s.slug},\n" + "".join(f"  {name} = {{{getattr(s, name)}}},\n" for name in names)
                       + "".join(f"  {name} = {{{value}}},\n" for name, value in s.bibliographic.items()) + "}\n"
                       for s in sources)

    bare_cpu, bare_wall = best_ms(bare, args.repeat)
    print(f"{'':18} {'CPU ms':>9} {'× bare':>7} {'wall ms':>9} {'× bare':>7}")
    print(f"{'written bare':18} {bare_cpu:9.1f} {1:7.1f} {bare_wall:9.1f} {1:7.1f}")
    for name, write in (("BibTeX", dump_bibtex), ("CSL-JSON", dump_csl_json)):
        cpu, wall = best_ms(lambda write=write: write(sources), args.repeat)  # type: ignore[misc]
        print(f"{name:18} {cpu:9.1f} {cpu / bare_cpu:7.1f} {wall:9.1f} {wall / bare_wall:7.1f}")


if __name__ == "__main__":
    main()
