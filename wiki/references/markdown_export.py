"""A page as a Markdown file: front matter, its text with the citations as written, then the list of the works
it cites, each with its citation key (the same as in the BibTeX and CSL-JSON exports) and where it is cited.

The list follows :data:`REFERENCES_MARKER`, an HTML comment (invisible once rendered) from which
:func:`wiki.services.page_import.parse_page_file` reads nothing: the list is made from the citations, so a file
imported back gives the page its own text again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from django.utils.translation import gettext

from wiki.models import Page, Source
from wiki.references.citation_keys import citation_keys
from wiki.references.front_matter import front_matter_value
from wiki.references.locators import distinct_locators
from wiki.references.names import author_names, unbraced

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>#|])")
REFERENCES_MARKER = "<!-- wiki-references: made from the page's citations; import_page reads nothing from here on -->"


def _escaped(text: str) -> str:
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def reference_line(source: Source, key: str) -> str:
    """``[key] Authors (Year). *Title*. Venue. arXiv:… · doi:… · <url> — cited at: §3; pp.3-4``."""
    parts = [f"[{key}]"]
    if source.authors:
        authors = "; ".join(unbraced(name) for name in author_names(source.authors))
        parts.append(_escaped(authors) + (f" ({source.year})." if source.year else "."))
    elif source.year:
        parts.append(f"({source.year}).")
    parts.append(f"*{_escaped(source.title)}*.")
    if source.venue:
        parts.append(f"{_escaped(source.venue)}.")
    links = []
    if source.arxiv_id:
        links.append(f"arXiv:{source.arxiv_id}")
    if source.doi:
        links.append(f"doi:{source.doi}")
    if source.url:
        links.append(f"<{source.url}>")
    line = " ".join(parts) + (" " + " · ".join(links) if links else "")
    locators = distinct_locators(getattr(source, "cited_locators", []))
    if locators:
        line += " — " + gettext("cited at: %(locators)s") % {"locators": "; ".join(_escaped(loc) for loc in locators)}
    return line


def page_markdown(*, page: Page, works: Sequence[Source]) -> str:
    """``page`` as Markdown, then its cited ``works`` (from :meth:`SourceQuerySet.cited_on`) as numbered references."""
    lines = ["---", f"title: {front_matter_value(page.title)}", f"slug: {front_matter_value(page.slug)}"]
    if page.summary:
        lines.append(f"summary: {front_matter_value(page.summary)}")
    lines += ["---", "", page.body.rstrip("\n"), ""]
    if works:
        keys = citation_keys(works)
        lines += [REFERENCES_MARKER, "", "---", "", "## " + gettext("References"), ""]
        lines += [f"{number}. {reference_line(source, keys[source.pk])}" for number, source in enumerate(works, start=1)]
        lines.append("")
    return "\n".join(lines)
