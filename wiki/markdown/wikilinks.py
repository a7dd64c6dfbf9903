"""``[[Target]]``, ``[[Target|label]]`` and ``[[Target#section]]`` wiki links. A link leads to the page of that address,
else to the page that had that address before it was moved, else to the page of that title, else to the glossary entry
of the term it names; failing all of these it is marked wanted. Past the address, a target is read as search reads
Chinese (:func:`link_key`): ``[[強化學習]]`` leads to the page or term 强化学习."""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections.abc import Mapping
from dataclasses import dataclass

from django.urls import reverse
from django.utils.text import slugify
from markdown import Markdown
from markdown.extensions import Extension
from markdown.inlinepatterns import InlineProcessor

from wiki.markdown.sanitize import heading_id
from wiki.search.tokenize import fold_variants

WIKILINK_RE = r"\[\[([^\[\]|\n]+?)(?:\|([^\[\]\n]+?))?\]\]"
# A slug as typed: word characters and hyphens, at least one of them a letter or a digit ("---" is no address).
SLUG_RE = re.compile(r"^[-\w]*[^\W_][-\w]*$")


@dataclass(frozen=True)
class LinkRef:
    target_slug: str
    target_title: str
    label: str


MAX_SLUG_LENGTH = 200  # Page.slug


# A colon, of either width, parts the words around it as a space does.
COLON_RE = re.compile(r"[:：]")


def target_slug(target: str) -> str:
    """``Agentic RL`` → ``agentic-rl``; ``信用分配`` → ``信用分配``; a slug stays as it is. A colon parts words as a
    space does, never glues them: ``Category:Reward design`` → ``category-reward-design`` (not
    ``categoryreward-design``), and ``Agentic AI 03: Survey`` → ``agentic-ai-03-survey`` as it always has."""
    target = target.strip()
    if SLUG_RE.match(target) and target == target.lower():
        return target[:MAX_SLUG_LENGTH]
    # Cut to the length a page's slug can have: a link to a very long title still points where its page would be.
    return slugify(COLON_RE.sub(" ", target), allow_unicode=True)[:MAX_SLUG_LENGTH].rstrip("-")


def link_key(target: str) -> str:
    """What a link naming ``target`` is known by once no page has it as its address: its address (:func:`target_slug`)
    with Traditional characters in their Simplified forms, as search reads them. Titles and glossary names are kept
    under theirs, and a link that leads to no page is stored under it, so ``[[強化學習]]`` and ``[[强化学习]]`` name
    the same page, term or wanted page."""
    return fold_variants(target_slug(target))


def split_target(target: str) -> tuple[str, str]:
    """``Agentic RL#定义`` → (``Agentic RL``, ``定义``): the page, and the heading of it a link leads to."""
    page, _, section = target.partition("#")
    return page.strip(), section.strip()


def find_link_targets(text: str) -> set[str]:
    slugs = (target_slug(split_target(m.group(1))[0]) for m in re.finditer(WIKILINK_RE, text))
    return {slug for slug in slugs if slug}


class WikiLinkProcessor(InlineProcessor):
    def __init__(self, pattern: str, md: Markdown, existing: frozenset[str], links: list[LinkRef],
                 terms: Mapping[str, str], aliases: Mapping[str, str]) -> None:
        super().__init__(pattern, md)
        self.existing = existing
        self.links = links
        self.terms = terms
        self.aliases = aliases

    def handleMatch(self, m: re.Match[str], data: str) -> tuple[etree.Element | None, int, int]:  # type: ignore[override]  # noqa: N802  InlineProcessor's signature, not Pattern's
        target = m.group(1).strip()
        label = (m.group(2) or target).strip()
        page, section = split_target(target)
        anchor = f"#{heading_id(section)}" if section else ""
        element = etree.Element("a")
        element.text = label
        if not page and anchor:
            # [[#定义]]: a heading of this page.
            element.set("href", anchor)
            element.set("class", "wikilink")
            return element, m.start(0), m.end(0)
        slug = target_slug(page)
        if not slug:
            return None, m.start(0), m.end(0)
        if slug not in self.existing:
            slug = self.aliases.get(slug) or link_key(page)
        term = None if slug in self.existing else self.terms.get(slug)
        if term is not None and m.group(2) is None:
            # A glossary entry has no sections: the link leads to the term, and says so.
            label = element.text = page
        self.links.append(LinkRef(target_slug=slug, target_title=page, label=label))
        if slug in self.existing or term is None:
            element.set("href", reverse("wiki:page-detail", kwargs={"slug": slug}) + anchor)
        if slug in self.existing:
            element.set("class", "wikilink")
        elif term is not None:
            element.set("href", reverse("wiki:glossary-detail", kwargs={"slug": term}))
            element.set("class", "wikilink term")
        else:
            # The title a page there would have; "(page does not exist yet)" is added in the reader's language
            # when shown (wiki.markdown.for_reader): this HTML is stored and shared by every reader.
            element.set("class", "wikilink wanted")
            element.set("title", page)
        return element, m.start(0), m.end(0)


class WikiLinkExtension(Extension):
    """``existing``: the slugs of pages that exist; ``aliases``: link targets that are no page's address → the slug of the
    page they name (by a former address or its title); ``terms``: the :func:`link_key` of link targets without a page →
    the glossary term they name."""

    def __init__(self, *, existing: frozenset[str], links: list[LinkRef], terms: Mapping[str, str],
                 aliases: Mapping[str, str]) -> None:
        super().__init__()
        self.existing = existing
        self.links = links
        self.terms = terms
        self.aliases = aliases

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802
        processor = WikiLinkProcessor(WIKILINK_RE, md, self.existing, self.links, self.terms, self.aliases)
        md.inlinePatterns.register(processor, "wikilink", 175)
