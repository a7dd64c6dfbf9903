"""A work's authors as a page lists them: all of a short list; of a long one (a paper with forty authors), the first
few, then "等 N 人" / "et al." in a ``<details>`` that opens on the rest, without JavaScript."""

from __future__ import annotations

from typing import Any

from django import template

from wiki.references.names import author_names, is_et_al, unbraced

register = template.Library()

# A list of up to this many authors is shown whole; a longer one shows AUTHORS_SHOWN, the rest folded.
AUTHORS_WHOLE = 5
AUTHORS_SHOWN = 3


@register.inclusion_tag("includes/author_list.html")
def author_list(authors: str) -> dict[str, Any]:
    """``authors`` (kept apart by semicolons) as :data:`AUTHORS_WHOLE` decides: ``shown`` and ``folded`` names,
    ``count`` in all, and whether the list goes on unknown (``et_al``)."""
    names = [unbraced(name) for name in author_names(authors)]
    et_al = bool(names) and is_et_al(names[-1])
    if et_al:
        names = names[:-1]
    long = len(names) > AUTHORS_WHOLE
    return {"shown": names[:AUTHORS_SHOWN] if long else names, "folded": names[AUTHORS_SHOWN:] if long else [],
            "count": len(names), "et_al": et_al}
