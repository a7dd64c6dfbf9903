"""Where each section of a page is in its rendered HTML: the heading that starts it, for the link that edits that
section alone (shown to editors) and for the place an editor returns to once the section is saved."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

from wiki import markdown as wiki_markdown
from wiki.markdown import sanitize
from wiki.text.sections import SECTION_LEVELS, sections

_HEADING_END = {level: re.compile(rf"</h{level}\s*>") for level in range(1, 7)}


def section_ids(*, body: str, toc: Sequence[Mapping[str, object]]) -> list[str]:
    """The id of each section's heading in the page rendered from ``body`` (whose contents are ``toc``), section N's
    the Nth. None when the text's sections and the rendered contents disagree (markup the renderer reads otherwise,
    such as a heading inside an HTML block), so that a link never leads to another section than the one it is in."""
    if [part.level for part in sections(body)] != [entry.get("level") for entry in toc]:
        return []
    return [str(entry.get("id", "")) for entry in toc]


def with_section_links(html: str, *, body: str, toc: Sequence[Mapping[str, object]],
                       link: Callable[[int, str], str]) -> str:
    """``html`` with ``link(number, title)`` (HTML, escaped already) at the end of each section's heading."""
    ids = section_ids(body=body, toc=toc)
    if not ids:
        return html
    parts: list[str] = []
    position = 0
    for number, (entry, heading_id) in enumerate(zip(toc, ids, strict=True), start=1):
        level = int(str(entry.get("level")))
        start = html.find(f'<h{level} id="{heading_id}"', position)
        if start < 0 or not heading_id:
            continue
        end = _HEADING_END[level].search(html, start)
        if end is None:
            continue
        parts += [html[position:end.start()], link(number, str(entry.get("title", "")))]
        position = end.start()
    parts.append(html[position:])
    return "".join(parts)


# A title holding none of these reads as typed once rendered (no emphasis, link, code, formula, citation, entity or
# HTML): its id is the renderer's slug of it, with no need to render it.
_MARKUP = re.compile(r"[\\`*_\[\]<>&$~^{}|（(]")


def heading_anchor(title: str) -> str:
    """The id the renderer gives a heading titled ``title`` as typed (a section's title as :mod:`wiki.text.sections`
    reads it, which an edit summary's ``/* … */`` names): the slug of the text it renders to, its markup read as the
    page's is. The first such heading of a page has it; a later one of the same title has a suffix."""
    if not _MARKUP.search(title):
        return sanitize.heading_id(title.strip())
    return _rendered_anchor(title)


@lru_cache(maxsize=1024)
def _rendered_anchor(title: str) -> str:
    try:
        toc = wiki_markdown.render(f"{'#' * SECTION_LEVELS.start} {title}", sources={}, existing_pages=frozenset()).toc
    except wiki_markdown.MarkdownTooComplex:
        toc = []
    return str(toc[0]["id"]) if toc else sanitize.heading_id(title.strip())
