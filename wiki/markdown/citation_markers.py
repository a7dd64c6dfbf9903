"""Citations rendered as markers: each title links to its source and shows the locator."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as etree
from collections.abc import Mapping
from dataclasses import dataclass

from django.urls import reverse
from markdown import Markdown
from markdown.extensions import Extension
from markdown.inlinepatterns import InlineProcessor

from wiki.markdown.citations import CITATION_RE, parse_citation_body, written_title
from wiki.text.lang import content_lang

# Sanitising keeps the marker's class and text (the title), not its data attributes.
_MISSING = re.compile(r'<span class="cite cite-missing"[^>]*>([^<]*)</span>')


def missing_citation_titles(rendered: str) -> set[str]:
    """The cited titles that sanitised HTML rendered by :class:`CitationExtension` shows as having no work."""
    return {html.unescape(title) for title in _MISSING.findall(rendered)}


@dataclass(frozen=True)
class SourceRef:
    slug: str
    short_name: str


class CitationProcessor(InlineProcessor):
    def __init__(self, md: Markdown, sources: Mapping[str, SourceRef]) -> None:
        super().__init__(CITATION_RE.pattern, md)
        self.sources = sources

    def handleMatch(self, m: re.Match[str], data: str) -> tuple[etree.Element | None, int, int]:  # type: ignore[override]  # noqa: N802  InlineProcessor's signature, not Pattern's
        parsed = parse_citation_body(m.group(1), m.group(2))
        if isinstance(parsed, str):
            return None, m.start(0), m.end(0)
        wrapper = etree.Element("span", {"class": f"citation citation-{'cited' if m.group(1) == '来源' else 'synthesised'}"})
        wrapper.set("data-kind", m.group(1))
        wrapper.text = f"（{m.group(1)}："
        last: etree.Element | None = None
        # each part (；) its works (、) and their locator (，)
        for titles, locator in parsed:
            if last is not None:
                last.tail = "；"
            previous: etree.Element | None = None
            for title in titles:
                previous = self._marker(wrapper, title, locator, previous)
            if previous is not None and locator:
                previous.tail = "，"
                previous = etree.SubElement(wrapper, "span", {"class": "locator"})
                previous.text = locator
            last = previous
        if last is not None:
            last.tail = "）"
        return wrapper, m.start(0), m.end(0)

    def _marker(self, wrapper: etree.Element, title: str, locator: str, previous: etree.Element | None) -> etree.Element:
        """The link to the work ``title`` names (a marker of a missing work when none), cited at ``locator``, after
        ``previous`` of the same part."""
        source = self.sources.get(title)
        if source is None:
            # Its explanation is added in the reader's language when shown (the wiki_tags filter rendered_body).
            marker = etree.SubElement(wrapper, "span", {"class": "cite cite-missing"})
        else:
            hover = f"{source.short_name} — {locator}" if locator else source.short_name
            marker = etree.SubElement(
                wrapper,
                "a",
                {"class": "cite", "href": reverse("wiki:source-detail", kwargs={"slug": source.slug}), "title": hover},
            )
        marker.set("data-title", title)
        marker.set("data-locator", locator)
        # an English title in a Chinese sentence is read out in English, and the other way round
        marker.set("lang", content_lang(title))
        # a title holding the citation's separators is shown in the quotes it is cited in
        marker.text = written_title(title) or title
        if previous is not None:
            previous.tail = "、"
        return marker


class CitationExtension(Extension):
    def __init__(self, *, sources: Mapping[str, SourceRef]) -> None:
        super().__init__()
        self.sources = sources

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802
        md.inlinePatterns.register(CitationProcessor(md, self.sources), "citation", 180)
