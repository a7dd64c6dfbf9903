"""Showing why a document matched: its title and the sentence that matched, every matched word highlighted, escaped.

A pattern (:func:`highlighter`) matches what the query asked for in the text once it is folded as search folds it
(:func:`~wiki.search.tokenize.fold_with_positions`: full-width letters, Traditional characters, accents; case aside),
and each match is highlighted where it was written: ``grpo`` marks ``ＧＲＰＯ``, ``強化學習`` marks ``强化学习``, however
folding changed the length of the text before it (``ﬁ`` is two letters folded).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import pairwise

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from wiki.search.spelling import other_spelling
from wiki.search.terms import Term
from wiki.search.tokenize import (
    CJK,
    PREFIX_MIN_LENGTH,
    fold_with_positions,
    folded_text,
    normalize,
    query_fragments,
    token_pattern,
)

SNIPPET_LENGTH = 220

_LATIN_EDGE = "0-9A-Za-z\u00c0-\u024f"
# What may stand between two words of a phrase: anything that is neither a letter or digit nor a CJK character.
_BETWEEN = rf"[^{_LATIN_EDGE}{CJK}]"


def _name_regex(name: str) -> str:
    """A glossary name as it may be written: any case, words apart by spaces, hyphens or slashes; a Latin edge
    not inside a longer word (``ES`` is not the end of ``uses``)."""
    words = [re.escape(m.group()) for m in re.finditer(rf"[{_LATIN_EDGE}]+|[^\s{_LATIN_EDGE}\-/_]+", name)]
    body = r"[\s\-/_‐–]*".join(words)
    before = rf"(?<![{_LATIN_EDGE}])" if re.match(rf"[{_LATIN_EDGE}]", name) else ""
    after = rf"(?![{_LATIN_EDGE}])" if re.search(rf"[{_LATIN_EDGE}]$", name) else ""
    return f"{before}{body}{after}" if body else ""


def highlighter(query: str, terms: tuple[Term, ...] = (), rest: str | None = None, *,
                phrases: Iterable[str] = ()) -> re.Pattern[str] | None:
    """Matches what the query asked for in the text folded (:func:`~wiki.search.tokenize.fold_with_positions`): each
    of its ``phrases`` whole, every name of the terms it named,
    then each other word (in either spelling, British or American) or CJK run (``rest``, the query itself by
    default), and the bigrams of such runs."""
    whole = {regex for phrase in phrases if (regex := _phrase_regex(phrase))}
    pieces: set[str] = set()
    for fragment in query_fragments(query if rest is None else rest):
        found = token_pattern().fullmatch(fragment)
        if found is not None and found.lastgroup == "latin":
            pieces.update(_word_regex(word) for word in (fragment, other_spelling(fragment)) if word)
            continue
        pieces.add(re.escape(fragment))
        if len(fragment) > 2:
            pieces.update(re.escape(fragment[i : i + 2]) for i in range(len(fragment) - 1))
    names = {regex for term in terms for name in term.spellings if (regex := _name_regex(fold_with_positions(name).text))}
    if not pieces and not names and not whole:
        return None
    # Longer alternatives first, so that a whole phrase or name wins over a piece of it.
    alternatives = [*sorted(whole, key=len, reverse=True), *sorted(names, key=len, reverse=True),
                    *sorted(pieces, key=len, reverse=True)]
    return re.compile("|".join(alternatives), re.IGNORECASE)


def _word_regex(word: str) -> str:
    """A Latin word of the query as the index matched it: at the start of a word, the whole word when it is too short
    to match longer words by their start (``or`` is not the middle of FlashREINFORCE, ``the`` not of Synthesis;
    ``skill`` is the start of SkillForge)."""
    after = rf"(?![{_LATIN_EDGE}])" if len(word) < PREFIX_MIN_LENGTH else ""
    return rf"(?<![{_LATIN_EDGE}]){re.escape(word)}{after}"


def _phrase_regex(phrase: str) -> str:
    """A quoted phrase as the index matched it: its words and CJK runs in order, anything but letters and digits
    between them (something between two Latin words or two CJK runs, as a document's tokens keep them apart), a
    Latin edge not inside a longer word."""
    runs = [(m.group(), m.lastgroup == "cjk") for m in token_pattern().finditer(normalize(phrase))]
    if not runs:
        return ""
    parts = [re.escape(runs[0][0])]
    for (_, before_cjk), (run, cjk) in pairwise(runs):
        parts.append(_BETWEEN + ("+" if before_cjk == cjk else "*") + re.escape(run))
    before = "" if runs[0][1] else rf"(?<![{_LATIN_EDGE}])"
    after = "" if runs[-1][1] else rf"(?![{_LATIN_EDGE}])"
    return f"{before}{''.join(parts)}{after}"


def identifier_highlighter(forms: tuple[str, ...]) -> re.Pattern[str] | None:
    """Matches an arXiv ID or a DOI in any of ``forms`` (``wiki.search.identifiers``), wherever it is written."""
    return re.compile("|".join(re.escape(form) for form in forms), re.IGNORECASE) if forms else None


# After Chinese sentence marks and line breaks; after a Latin one only when a space and a new sentence follow
# (``pp.3-4``, ``&amp;`` and ``e.g. x`` stay whole).
_SENTENCE_END_RE = re.compile(r"(?<=[。！？；\n])|(?<=[.?!])\s+(?=[A-Z\u4e00-\u9fff])")


def sentences(text: str) -> list[str]:
    """``text`` cut into sentences: after Chinese and Latin sentence marks and line breaks."""
    return [part.strip() for part in _SENTENCE_END_RE.split(text) if part.strip()]


def best_sentence(text: str, pattern: re.Pattern[str] | None) -> str:
    """The sentence of ``text`` that matched: the one with the most different matches, then one that says more
    than the match itself (not a bare list item), then the first; the text itself when nothing in it matches."""
    if pattern is None:
        return text
    best, best_key = text, (0, False)
    for sentence in sentences(text):
        found = [m.group() for m in pattern.finditer(folded_text(sentence))]
        if not found:
            continue
        key = (len({f.lower() for f in found}), len(sentence) > sum(map(len, found)) + 8)
        if key > best_key:
            best, best_key = sentence, key
    return best


def snippet(text: str, pattern: re.Pattern[str] | None, *, length: int = 0) -> SafeString:
    """The sentence that matched, cut to ``length`` around its first match, every match highlighted."""
    return highlight(best_sentence(text, pattern), pattern, length=length or SNIPPET_LENGTH)


def highlight(text: str, pattern: re.Pattern[str] | None, *, length: int | None = None) -> SafeString:
    """``text`` (cut to ``length`` around the first match) HTML-escaped, with every match wrapped in ``<mark>``."""
    if length is not None and len(text) > length:
        folded = fold_with_positions(text)
        first = pattern.search(folded.text) if pattern else None
        start = max(0, (folded.written(*first.span())[0] if first else 0) - length // 3)
        end = min(len(text), start + length)
        prefix, suffix = ("…" if start > 0 else ""), ("…" if end < len(text) else "")
        text = f"{prefix}{text[start:end]}{suffix}"
    if pattern is None:
        return escape(text)
    out: list[str] = []
    position = 0
    folded = fold_with_positions(text)
    for match in pattern.finditer(folded.text):
        start, end = folded.written(*match.span())
        # two matches within one character folded into several: the character is marked once
        start = max(start, position)
        if end <= start:
            continue
        out.append(escape(text[position:start]))
        out.append(f"<mark>{escape(text[start:end])}</mark>")
        position = end
    out.append(escape(text[position:]))
    return mark_safe("".join(out))  # noqa: S308 - every piece of text was escaped above
