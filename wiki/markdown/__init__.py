"""Markdown for wiki pages: one function, :func:`render`, returning HTML plus what the text links to and cites."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import markdown
from django.conf import settings
from django.utils.translation import gettext
from markdown.extensions.footnotes import FootnoteExtension
from markdown.extensions.toc import TocExtension

from wiki.markdown.citation_markers import CitationExtension, SourceRef
from wiki.markdown.citations import CitationProblem, find_citations
from wiki.markdown.claims import ClaimExtension, ClaimRef
from wiki.markdown.foreign_markup import ForeignMarkup, foreign_markup
from wiki.markdown.limits import limit_problem
from wiki.markdown.lists import ListExtension
from wiki.markdown.math import MathStash
from wiki.markdown.raw_html import RawHtmlExtension
from wiki.markdown.sanitize import heading_id, sanitize_html
from wiki.markdown.tables import TableExtension
from wiki.markdown.wikilinks import LinkRef, WikiLinkExtension, find_link_targets
from wiki.text.numbers import grouped
from wiki.text.sections import SECTION_LEVELS

__all__ = [
    "ClaimRef",
    "ForeignMarkup",
    "LinkRef",
    "MarkdownTooComplex",
    "RenderResult",
    "SourceRef",
    "check_complexity",
    "cited_titles",
    "find_citations",
    "find_link_targets",
    "for_reader",
    "render",
]

MAX_NESTING = 32
_LEADING_MARKERS = re.compile(r"^(?:[ \t]*(?:>|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t])))+")


class MarkdownTooComplex(ValueError):
    """The text is too large or too deeply nested to render safely."""


@dataclass
class RenderResult:
    html: str
    toc: list[dict[str, object]] = field(default_factory=list)
    links: list[LinkRef] = field(default_factory=list)
    claims: list[ClaimRef] = field(default_factory=list)
    problems: list[CitationProblem] = field(default_factory=list)
    # MediaWiki markup this wiki reads otherwise, for the editor to be told (nothing refuses it).
    foreign: list[ForeignMarkup] = field(default_factory=list)


def check_complexity(text: str) -> None:
    """Refuse text whose size or nesting would make rendering slow or recursive without bound."""
    limit = settings.WIKI_MAX_BODY_CHARS
    if len(text) > limit:
        raise MarkdownTooComplex(gettext("The text is %(length)s characters long; the limit is %(limit)s.") % {"length": grouped(len(text)), "limit": grouped(limit)})
    for number, line in enumerate(text.splitlines(), start=1):
        match = _LEADING_MARKERS.match(line)
        indent = len(line) - len(line.lstrip(" \t"))
        depth = (match.group(0).count(">") + len(re.findall(r"[-*+]|\d+[.)]", match.group(0))) if match else 0) + indent // 4
        if depth > MAX_NESTING:
            raise MarkdownTooComplex(
                gettext("Line %(line)s nests lists or quotes %(depth)s levels deep; at most %(limit)s are allowed.")
                % {"line": number, "depth": depth, "limit": MAX_NESTING}
            )
    problem = limit_problem(text)
    if problem is not None:
        raise MarkdownTooComplex(problem)


def cited_titles(text: str) -> list[str]:
    """Every title ``text`` cites, once, in the order first cited."""
    refs, _ = find_citations(text)
    return list(dict.fromkeys(title for ref in refs for title in ref.titles))


def render(
    text: str, *, sources: Mapping[str, SourceRef], existing_pages: frozenset[str], terms: Mapping[str, str] | None = None,
    aliases: Mapping[str, str] | None = None,
) -> RenderResult:
    """Sanitised HTML of ``text`` with its table of contents, wiki links, claims and citation problems.

    ``sources`` maps cited titles to sources; ``existing_pages`` holds the slugs of pages that
    exist, so that links to other pages are shown as wanted; ``aliases`` maps link targets that are no page's address
    to the slug of the page they name, by an address it had before it was moved or by its title
    (``agentic-ai-03-…`` → ``agentic-rl-survey-notes``), and ``terms``
    maps link targets without a page to the slug of the glossary term they name, whose entry such a link leads to
    instead.
    """
    check_complexity(text)
    links: list[LinkRef] = []
    claims: list[ClaimRef] = []
    math = MathStash()
    # a heading's id and its entry in the contents read its formulas' LaTeX, not the tokens standing for them
    toc = TocExtension(slugify=lambda title, separator: heading_id(math.plain(title), separator), toc_depth=f"{SECTION_LEVELS.start}-{SECTION_LEVELS.stop - 1}",
                       permalink=False)
    md = markdown.Markdown(
        extensions=[
            "tables",
            "fenced_code",
            "sane_lists",
            # The back link's title is added in the reader's language when shown (for_reader).
            FootnoteExtension(BACKLINK_TITLE=""),
            # ~~struck out~~ only: a single ~ stays text ("1~2 步").
            "pymdownx.tilde",
            toc,
            WikiLinkExtension(existing=existing_pages, links=links, terms=terms or {}, aliases=aliases or {}),
            CitationExtension(sources=sources),
            ClaimExtension(claims=claims, math=math),
            RawHtmlExtension(),
            ListExtension(),
            TableExtension(),
        ],
        extension_configs={"tables": {"use_align_attribute": True}, "pymdownx.tilde": {"subscript": False}},
        output_format="html",
    )
    html = md.convert(math.cut(text))
    html = math.restore(sanitize_html(html))
    _, problems = find_citations(text)
    linked = {link.target_title for link in links if link.target_slug in existing_pages or link.target_slug in (terms or {})}
    return RenderResult(
        html=html,
        toc=[{**entry, "title": math.plain(str(entry["title"]))} for entry in _flatten_toc(getattr(md, "toc_tokens", []))],
        links=_unique_links(links),
        claims=claims,
        problems=problems,
        foreign=foreign_markup(text, linked=linked),
    )


# What the stored HTML leaves for the reader's language (older renderings carry an English title).
_WANTED_LINK = re.compile(r'(<a class="wikilink wanted"[^>]*?) title="([^"]*)"')
_MATH_ERROR = re.compile(r'class="math-error"(?: title="[^"]*")?')
_FOOTNOTE_BACKLINK = re.compile(r'class="footnote-backref"(?: [^>]*?)? title="[^"]*"(?: aria-label="[^"]*")?')
# A wanted link's text and a formula left as typed, to say so after (an anchor holds no other anchor).
_WANTED_TEXT = re.compile(r'(<a class="wikilink wanted"[^>]*>.*?)</a>', re.DOTALL)
_MATH_ERROR_TEXT = re.compile(r'(<code class="math-error"[^>]*>.*?</code>)', re.DOTALL)
_OLD_WANTED_SUFFIX = " (page does not exist yet)"


def for_reader(rendered: str) -> str:
    """Rendered HTML with the interface's words in the active language: it is stored once and shared by every
    reader, so a wanted link, a formula that could not be rendered and a footnote's back link are explained here.
    Only attributes of the wiki's own markup change; the HTML stays as sanitised."""
    def wanted(match: re.Match[str]) -> str:
        page = html.unescape(match[2]).removesuffix(_OLD_WANTED_SUFFIX)
        note = gettext("%(page)s (page does not exist yet)") % {"page": page}
        return f'{match[1]} title="{html.escape(note)}"'

    rendered = _WANTED_LINK.sub(wanted, rendered)
    # A title is read by a pointer alone: keyboard, touch and screen reader users are told in hidden text.
    missing = html.escape(gettext(" (page does not exist yet)"))
    rendered = _WANTED_TEXT.sub(rf'\1<span class="visually-hidden">{missing}</span></a>', rendered)
    formula = html.escape(gettext("This formula could not be rendered"))
    rendered = _MATH_ERROR.sub(f'class="math-error" title="{formula}"', rendered)
    unrendered = html.escape(gettext(" (this formula could not be rendered)"))
    rendered = _MATH_ERROR_TEXT.sub(rf'\1<span class="visually-hidden">{unrendered}</span>', rendered)
    back = html.escape(gettext("Back to the text"))
    return _FOOTNOTE_BACKLINK.sub(lambda m: m[0].rsplit(" title=", 1)[0] + f' title="{back}" aria-label="{back}"', rendered)


def _flatten_toc(tokens: list[dict[str, object]]) -> list[dict[str, object]]:
    flat: list[dict[str, object]] = []
    for token in tokens:
        # the toc extension hands out names already HTML-escaped; templates escape them again
        flat.append({"level": token["level"], "id": token["id"], "title": html.unescape(str(token["name"]))})
        flat.extend(_flatten_toc(token.get("children", [])))  # type: ignore[arg-type]
    return flat


def _unique_links(links: list[LinkRef]) -> list[LinkRef]:
    seen: dict[str, LinkRef] = {}
    for link in links:
        seen.setdefault(link.target_slug, link)
    return list(seen.values())
