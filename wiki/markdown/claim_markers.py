"""Where a claim's sentence writes its citations in a page's Markdown, so that citations set on the claim can be
written back into the text the claim is read from.

The claims are the renderer's (:mod:`wiki.markdown.claims`), found by rendering the text; which citation of the text
belongs to which claim is found by rendering it once more with each citation naming a probe of its own, and where a
sentence without citations ends by rendering it with a probe citation at the end of a line that may end it.
Rendering only changes no block's kind (a citation stays a citation, a bullet a bullet), so the n-th claim of the
probed text is the n-th claim of the text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from wiki.markdown import ClaimRef, render
from wiki.markdown.citations import CitationGroup, find_citations, parse_citation_body, written_title
from wiki.markdown.wikilinks import WIKILINK_RE

# A private-use character no page holds: a probe's title is it around a number.
_PROBE = "\ue000"
_PROBE_TITLE = re.compile(rf"{_PROBE}(\d+){_PROBE}")
# Punctuation that ends a sentence, Chinese or English.
SENTENCE_END = "。！？.!?"
# Markup a line may end with after its last visible character (emphasis, a wiki link, code, a formula, a tag).
_TRAILING_MARKUP = re.compile(r"(?:[*_~`\]\)$>\\]|<[^<>]*>)+$")
_WIKILINK = re.compile(WIKILINK_RE)
_NOT_WORD = re.compile(r"[\W_]+")
# How many lines ending like the sentence are tried, one render each, before giving up.
_END_TRIES = 8
# What cannot stand in a title written into a citation: a line break, and code or escape characters, which the
# renderer reads before citations (its separators and a pair of its brackets can, the title in quotes: ``written_title``).
_UNWRITABLE = re.compile(r"[\n`\\]")


@dataclass(frozen=True)
class Marker:
    """One citation written in the text, ``（来源：A、B，§2；C）`` at ``start:end``: its kind word and parts."""

    start: int
    end: int
    word: str
    groups: tuple[CitationGroup, ...]

    @property
    def items(self) -> list[tuple[str, str]]:
        """(title, locator) of each work it names, in order."""
        return [(title, locator) for titles, locator in self.groups for title in titles]


@dataclass(frozen=True)
class ClaimPlace:
    """A claim's sentence in the text: its citations, in order, and where a citation added at its end goes (None
    when it has citations: a new one goes after the last)."""

    markers: tuple[Marker, ...]
    end: int | None


def _claims(body: str) -> list[ClaimRef]:
    # Which blocks are claims, and their text, does not depend on which works or pages exist.
    return render(body, sources={}, existing_pages=frozenset()).claims


def is_writable_title(title: str) -> bool:
    """``title`` can name a work inside a citation and be read back the same."""
    return (bool(title) and title == title.strip() and len(title) <= 500 and not _UNWRITABLE.search(title)
            and bool(written_title(title)))


def writable_locator(locator: str) -> str:
    """``locator`` as a citation can hold it: the full-width comma and semicolon, which part a citation, written
    as the ASCII ones (``p.3，p.5`` → ``p.3, p.5``), which a locator joins its parts with as well."""
    return locator.replace("，", ", ").replace("；", "; ")


def marker_text(word: str, items: Sequence[tuple[str, str]]) -> str:
    """The citation naming ``items`` (title, locator), works at the same locator one after another joined by
    ``、``: ``（来源：A、B，§2；C，p.3）``."""
    parts: list[tuple[list[str], str]] = []
    for title, locator in items:
        if parts and parts[-1][1] == locator:
            parts[-1][0].append(title)
        else:
            parts.append(([title], locator))
    body = "；".join("、".join(written_title(title) or title for title in titles) + (f"，{locator}" if locator else "")
                    for titles, locator in parts)
    return f"（{word}：{body}）"


def ends_before_stop(body: str) -> bool:
    """How the page places a citation against the end of its sentence: True when its citations mostly come before
    the sentence's final punctuation (``…RL（来源：…）。``), False when after it (``…RL。（来源：…）``, as the wiki's pages
    are written) or when the page does not say."""
    before = after = 0
    for start, end in dict.fromkeys((ref.start, ref.end) for ref in find_citations(body)[0]):
        after += start > 0 and body[start - 1] in SENTENCE_END
        before += body[end:end + 1] in tuple(SENTENCE_END)
    return before > after


def claim_place(body: str, *, key: str, text: str, before_stop: bool) -> ClaimPlace | None:
    """Where the claim with sentence key ``key`` (else the one with ``text``) writes its citations in ``body``;
    None when no claim of the text is it, or its sentence could not be told apart in the Markdown.

    ``before_stop``: a citation added to a sentence that has none goes before its final punctuation rather than
    after it."""
    claims = _claims(body)
    index = next((i for i, ref in enumerate(claims) if ref.key == key), None)
    if index is None:
        index = next((i for i, ref in enumerate(claims) if ref.text == text), None)
    if index is None:
        return None
    spans = list(dict.fromkeys((ref.start, ref.end) for ref in find_citations(body)[0]))
    if spans:
        probed, at = [], 0
        for n, (start, end) in enumerate(spans):
            probed += [body[at:start + 4], f"{_PROBE}{n}{_PROBE}"]
            at = end - 1
        probed.append(body[at:])
        seen = _claims("".join(probed))
        if len(seen) != len(claims):
            return None
        own = sorted(int(found[1]) for cited in seen[index].citations if (found := _PROBE_TITLE.fullmatch(cited.title)))
        markers = tuple(_marker(body, *spans[n]) for n in own)
        if markers:
            return ClaimPlace(markers=markers, end=None)
    sentence_end = _sentence_end(body, claims, index, before_stop=before_stop)
    return None if sentence_end is None else ClaimPlace(markers=(), end=sentence_end)


def _marker(body: str, start: int, end: int) -> Marker:
    word = body[start + 1:start + 3]
    groups = parse_citation_body(word, body[start + 4:end - 1])
    assert not isinstance(groups, str)  # spans are those find_citations could read
    return Marker(start=start, end=end, word=word, groups=tuple(groups))


def _sentence_end(body: str, claims: list[ClaimRef], index: int, *, before_stop: bool) -> int | None:
    """Where in ``body`` the visible text of claim ``index`` ends (before its final punctuation with
    ``before_stop``): the end of the line whose probe citation the claim then ends with."""
    text = claims[index].text
    words = _words(text)
    stop = before_stop and text[-1] in SENTENCE_END
    seen_text = text[:-1] if stop else text
    candidates: list[tuple[int, int]] = []
    for line in re.finditer(r"[^\n]+", body):
        content = line[0].rstrip()
        alike = _common_suffix(_words(content), words)
        if not alike:
            continue
        at = line.start() + len(content)
        if stop:
            shown = _TRAILING_MARKUP.sub("", content)
            if not shown.endswith(text[-1]):
                continue
            at = line.start() + len(shown) - 1
        candidates.append((-alike, at))
    probe = f"（来源：{_PROBE}）"
    for _, at in sorted(candidates)[:_END_TRIES]:
        seen = _claims(body[:at] + probe + body[at:])
        if len(seen) == len(claims) and seen[index].text == seen_text + probe + (text[-1] if stop else ""):
            return at
    return None


def _words(text: str) -> str:
    """The letters and digits of ``text``, a wiki link's label for the link: how alike a line's end and a sentence's
    are, whatever the markup."""
    return _NOT_WORD.sub("", _WIKILINK.sub(lambda link: link[2] or link[1], text))


def _common_suffix(left: str, right: str) -> int:
    n = 0
    while n < min(len(left), len(right)) and left[-1 - n] == right[-1 - n]:
        n += 1
    return n
