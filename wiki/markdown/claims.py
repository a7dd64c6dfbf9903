"""Claims found while rendering: every block that cites a source, and every key-point bullet.

Runs after the inline patterns, so it sees the visible text of each block and the citation
markers inside it; it gives each claim an anchor id on the page.
"""

from __future__ import annotations

import hashlib
import html
import re
import xml.etree.ElementTree as etree
from dataclasses import dataclass

from markdown import Markdown
from markdown.extensions import Extension
from markdown.extensions.footnotes import NBSP_PLACEHOLDER
from markdown.treeprocessors import Treeprocessor
from markdown.util import HTML_PLACEHOLDER_RE

from wiki.markdown.math import MathStash
from wiki.markdown.sanitize import HTML_TAG, escape_unlisted_html
from wiki.text.spaces import collapse_spaces

KEY_POINT_SECTIONS = {"关键要点", "key points", "key findings", "要点"}
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


@dataclass(frozen=True)
class CitedSource:
    title: str
    locator: str
    kind: str


@dataclass(frozen=True)
class ClaimRef:
    key: str
    anchor: str
    section: str
    text: str
    citations: tuple[CitedSource, ...]


def claim_key(text: str) -> str:
    """Equal for sentences that differ only in spacing."""
    return hashlib.sha256(collapse_spaces(text).encode()).hexdigest()


def _classes(element: etree.Element) -> list[str]:
    return (element.get("class") or "").split()


def _is_footnote_mark(element: etree.Element) -> bool:
    """A footnote's number in the text (``<sup><a class="footnote-ref">``) or its way back (``footnote-backref``):
    links, not words of the claim."""
    if element.tag == "a":
        return "footnote-backref" in _classes(element)
    return element.tag == "sup" and any("footnote-ref" in _classes(child) for child in element)


def _own_text(element: etree.Element) -> str:
    """The text of a block, leaving out nested lists and footnote marks, with the placeholders Markdown and formulas
    left in it."""
    parts: list[str] = [element.text or ""]
    for child in element:
        if child.tag not in {"ul", "ol"} and not _is_footnote_mark(child):
            parts.append("".join(child.itertext()))
        parts.append(child.tail or "")
    # the space a footnote's text keeps before its way back
    return "".join(parts).replace(NBSP_PLACEHOLDER, "")


def _own_citations(element: etree.Element) -> list[etree.Element]:
    found: list[etree.Element] = []
    stack = [child for child in element if child.tag not in {"ul", "ol"}]
    while stack:
        node = stack.pop(0)
        if node.tag == "span" and "citation" in (node.get("class") or "").split():
            found.append(node)
            continue
        stack.extend(node)
    return found


class ClaimTreeprocessor(Treeprocessor):
    def __init__(self, md: Markdown, claims: list[ClaimRef], math: MathStash) -> None:
        super().__init__(md)
        self.claims = claims
        self.math = math
        self.section = ""
        self.seen: dict[str, int] = {}

    def run(self, root: etree.Element) -> None:
        self.section = ""
        self._walk(root)

    def _walk(self, parent: etree.Element, *, paragraphs: bool = True) -> None:
        """Finds the claims in ``parent``'s blocks; with ``paragraphs`` false (inside a list item, whose text is its
        paragraphs' text: a loose list's item) only in its nested blocks."""
        for element in parent:
            if element.tag in HEADINGS:
                self.section = self._visible("".join(element.itertext()))
            elif element.tag in {"ul", "ol"}:
                for item in element:
                    if item.tag == "li":
                        self._consider(item, is_bullet=True)
                        self._walk(item, paragraphs=False)
            elif element.tag == "p" and paragraphs:
                self._consider(element, is_bullet=False)
            elif element.tag == "div" and "footnote" in _classes(element):
                self._footnotes(element)
            elif element.tag in {"blockquote", "div", "details"}:
                self._walk(element)

    def _footnotes(self, notes: etree.Element) -> None:
        """The footnotes at the end of the page: a note that cites a source is a claim, in no section (a note is no
        key point, whatever heading the page ended under)."""
        section, self.section = self.section, ""
        for notes_list in notes.iterfind("ol"):
            for item in notes_list.iterfind("li"):
                self._walk(item)
        self.section = section

    def _consider(self, element: etree.Element, *, is_bullet: bool) -> None:
        markers = _own_citations(element)
        in_key_points = self.section.casefold() in KEY_POINT_SECTIONS
        if not markers and not (is_bullet and in_key_points):
            return
        text = self._visible(_own_text(element))
        if not text:
            return
        key = claim_key(text)
        occurrence = self.seen.get(key, 0)
        self.seen[key] = occurrence + 1
        if occurrence:
            key = claim_key(f"{text}#{occurrence}")
        anchor = f"claim-{key[:10]}"
        element.set("id", anchor)
        element.set("class", ((element.get("class") or "") + " claim").strip())
        citations: list[CitedSource] = []
        for marker in markers:
            kind = "synthesised" if marker.get("data-kind") == "综合" else "cited"
            for cite in marker:
                title = cite.get("data-title")
                if title:
                    citations.append(CitedSource(title=title, locator=cite.get("data-locator") or "", kind=kind))
        self.claims.append(ClaimRef(key=key, anchor=anchor, section=self.section, text=text, citations=tuple(citations)))


    def _visible(self, text: str) -> str:
        """``text`` as the reader sees it, spaces collapsed: the text of the inline HTML Markdown set aside
        (``<i>斜体</i>`` → 斜体, ``&amp;`` → &, ``<script>`` shown as typed, a comment not at all) and each formula as
        typed, where their placeholders stood."""
        escaped: dict[str, int] = {}

        def stashed(match: re.Match[str]) -> str:
            raw = self.md.htmlStash.rawHtmlBlocks[int(match[1])]
            if not isinstance(raw, str):
                return "".join(raw.itertext())
            # the tags the page keeps are markup, any other is shown as typed (wiki.markdown.raw_html)
            shown = _COMMENT.sub("", escape_unlisted_html(raw, escaped=escaped))
            return html.unescape(HTML_TAG.sub("", shown))

        return collapse_spaces(self.math.typed(HTML_PLACEHOLDER_RE.sub(stashed, text)))


class ClaimExtension(Extension):
    def __init__(self, *, claims: list[ClaimRef], math: MathStash) -> None:
        super().__init__()
        self.claims = claims
        self.math = math

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802
        # After the inline patterns (priority 20), before pretty-printing (10).
        md.treeprocessors.register(ClaimTreeprocessor(md, self.claims, self.math), "claims", 15)
