"""Stable citation keys for a list of works, the same in BibTeX, CSL-JSON and Markdown.

A work's own BibTeX key when it has one that BibTeX and biber accept and no earlier work (by id) of the list
already uses; otherwise its slug (unique, and never changed), or in the rare case that another work's BibTeX key
is that slug, the slug with the work's id.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from wiki.models import Source
from wiki.models.rules import BIBTEX_KEY

_KEY = re.compile(BIBTEX_KEY)


def citation_keys(sources: Sequence[Source]) -> dict[int, str]:
    """A stable, unique key for each source: its BibTeX key when usable and not taken by an earlier one, else its slug."""
    keys: dict[int, str] = {}
    taken: set[str] = set()
    for source in sorted(sources, key=lambda s: s.pk):
        candidates = (source.bibtex_key, source.slug, f"{source.slug}-{source.pk}")
        key = next(k for k in candidates if (_KEY.fullmatch(k or "") and k not in taken) or k == candidates[-1])
        keys[source.pk] = key
        taken.add(key)
    return keys
