"""Turning mixed Chinese/English text into search tokens.

Chinese has no spaces and the embedded PostgreSQL has no segmenter (no zhparser, no pg_trgm),
so runs of CJK characters become overlapping bigrams (``信用分配`` → 信用 用分 分配) plus the
single characters, which lets a one-character query match. Latin text becomes lower-cased
words, and a document also carries the prefixes of its long words (``skillforge`` → skil, skill,
skillf, …), so a query word matches longer words through an exact lexeme: a ``:*`` prefix search
would make PostgreSQL merge the postings of every word starting with it on each query. Documents
and queries go through the same functions, so both sides agree on every token. Both read Traditional
characters as their Simplified forms (``強化學習`` finds 强化学习, and a page written in Traditional characters is
found by a query in Simplified ones), and Latin letters without their accents (``Müller`` is found by ``Muller``
and the other way round, ``café`` by ``cafe``), one character for one, so a position in the folded text is the same
position in the text as written.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import opencc

# Han (with extensions and compatibility ideographs), kana and Hangul syllables: a character class's contents.
CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u309f\u30a0-\u30ff\uac00-\ud7af\U00020000-\U0002fa1f"
_TOKEN_RE = re.compile(rf"(?P<cjk>[{CJK}]+)|(?P<latin>[0-9a-z\u00df-\u00f6\u00f8-\u024f]+)")
# A Latin word this long in a query also matches longer words starting with it (``skill`` → SkillForge):
# documents index the prefixes of their words from this length up to PREFIX_MAX_LENGTH.
PREFIX_MIN_LENGTH = 4
PREFIX_MAX_LENGTH = 24


def token_pattern() -> re.Pattern[str]:
    """Latin words (group ``latin``) and CJK runs (group ``cjk``) of normalised text."""
    return _TOKEN_RE


# Where OpenCC's Traditional-to-Simplified table is read: the basic Han block, extension A, the compatibility
# ideographs and the supplementary planes' extensions.
_HAN_RANGES = ((0x3400, 0x4DC0), (0x4E00, 0xA000), (0xF900, 0xFB00), (0x20000, 0x2FA20))


@cache
def _simplified_table() -> dict[int, str]:
    """Each Traditional character OpenCC's ``t2s`` turns into one Simplified character, by itself (OpenCC's
    phrases would turn a run into another run, not always of the same length)."""
    chars = [chr(code) for start, end in _HAN_RANGES for code in range(start, end)]
    converted = opencc.OpenCC("t2s").convert("\n".join(chars)).split("\n")
    return {ord(char): new for char, new in zip(chars, converted, strict=True) if new != char and len(new) == 1}


@cache
def _traditional() -> frozenset[str]:
    return frozenset(map(chr, _simplified_table()))


def traditional_characters() -> str:
    """Every character :func:`fold_variants` changes."""
    return "".join(sorted(_traditional()))


def fold_variants(text: str) -> str:
    """``text`` with Traditional characters in their Simplified forms (``學習`` → 学习), the same length."""
    # Most text has none: looking for one costs a fifth of translating each character.
    return text if _traditional().isdisjoint(text) else text.translate(_simplified_table())


# Where Latin letters with accents are: Latin-1, Latin Extended-A and -B, and Latin Extended Additional (Vietnamese).
_LATIN_RANGES = ((0xC0, 0x250), (0x1E00, 0x1F00))
# Letters Unicode does not decompose, read as the letter they are written with (Sørensen, Łukasz, Đorđević).
_UNDECOMPOSED = {"ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ħ": "h", "Ħ": "H"}


@cache
def _unaccented_table() -> dict[int, str]:
    """Each Latin letter that is a letter and marks (``ü`` is ``u`` and a diaeresis) as that letter alone."""
    table = {ord(char): base for char, base in _UNDECOMPOSED.items()}
    for start, end in _LATIN_RANGES:
        for code in range(start, end):
            decomposed = unicodedata.normalize("NFD", chr(code))
            letter, marks = decomposed[0], decomposed[1:]
            if marks and letter.isascii() and letter.isalpha() and all(unicodedata.combining(m) for m in marks):
                table[code] = letter
    return table


@cache
def _accented() -> frozenset[str]:
    return frozenset(map(chr, _unaccented_table()))


def fold_accents(text: str) -> str:
    """``text`` with Latin letters without their accents (``Jörg Müller`` → ``Jorg Muller``), the same length."""
    return text if text.isascii() or _accented().isdisjoint(text) else text.translate(_unaccented_table())


def fold_for_search(text: str) -> str:
    """``text`` as search compares it, character for character: Simplified characters, Latin letters unaccented (case
    kept, so that a match found in it is a match in ``text`` at the same place)."""
    return fold_accents(fold_variants(text))


@dataclass(frozen=True)
class Folded:
    """Text as highlighting matches it (:func:`fold_with_positions`) and where each of its characters was written."""

    text: str
    # For each character of ``text``, where the characters it was folded from start and end in the text as written;
    # None when every character is folded one for one.
    starts: tuple[int, ...] | None = None
    ends: tuple[int, ...] | None = None

    def written(self, start: int, end: int) -> tuple[int, int]:
        """Where the folded ``text[start:end]`` is in the text as written: whole characters, so that a match of part
        of a character folded into several (``fi`` of ``ﬁ``) is the character."""
        if self.starts is None or self.ends is None:
            return start, end
        if start >= len(self.starts):
            return (self.ends[-1], self.ends[-1]) if self.ends else (0, 0)
        if end <= start:
            return self.starts[start], self.starts[start]
        return self.starts[start], self.ends[end - 1]


# A run of characters that NFKC leaves as they are, one for one: ASCII and the CJK Unified Ideographs, none followed by
# a combining mark (which NFKC may compose with the letter before it).
_PLAIN_RUN = re.compile(r"(?:[\x00-\x7f\u4e00-\u9fff](?=[\x00-\x7f\u4e00-\u9fff]|$))+")


def _nfkc_pieces(text: str) -> Iterator[tuple[int, int, str, bool]]:
    """``text`` in pieces, each with where it starts and ends in ``text``, its NFKC form, and whether it is a plain run
    (its characters kept one for one); any other piece is a letter with the accents that follow it, which NFKC
    composes into one character. Plain runs are taken whole: most text is read at the speed of a regex."""
    start = 0
    while start < len(text):
        if (plain := _PLAIN_RUN.match(text, start)) is not None:
            yield start, plain.end(), plain.group(), True
            start = plain.end()
            continue
        end = start + 1
        while end < len(text) and unicodedata.combining(text[end]):
            end += 1
        yield start, end, unicodedata.normalize("NFKC", text[start:end]), False
        start = end


def fold_with_positions(text: str) -> Folded:
    """``text`` as search compares it, case kept: NFKC (full-width letters and digits in their ASCII forms: ``ＧＲＰＯ``
    → ``GRPO``, ``ﬁ`` → ``fi``), then :func:`fold_for_search`; with the place in ``text`` of each folded character,
    since NFKC may write a character as several (``Ⅻ`` → ``XII``) or several as one (an ``e`` and a combining accent)."""
    if unicodedata.is_normalized("NFKC", text):
        return Folded(fold_for_search(text))
    pieces: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    for start, end, piece, plain in _nfkc_pieces(text):
        pieces.append(piece)
        if plain:
            starts.extend(range(start, end))
            ends.extend(range(start + 1, end + 1))
        else:
            starts.extend([start] * len(piece))
            ends.extend([end] * len(piece))
    # fold_for_search changes each character by itself: folding the pieces joined folds each of them
    return Folded(fold_for_search("".join(pieces)), tuple(starts), tuple(ends))


def folded_text(text: str) -> str:
    """``fold_with_positions(text).text``, without the positions: what a match is looked for in."""
    if unicodedata.is_normalized("NFKC", text):
        return fold_for_search(text)
    return fold_for_search("".join(piece for _, _, piece, _ in _nfkc_pieces(text)))


def normalize(text: str) -> str:
    """NFKC folds full-width letters and digits (ＧＲＰＯ) into their ASCII forms and composes a letter typed with a
    separate accent; then lower case, Simplified characters and Latin letters without accents."""
    return fold_for_search(unicodedata.normalize("NFKC", text).lower())


def _bigrams(run: str) -> list[str]:
    return [run[i : i + 2] for i in range(len(run) - 1)]


def document_tokens(text: str) -> list[str]:
    """Tokens to index for ``text``: Latin words, CJK bigrams, then each CJK character and word prefix once."""
    tokens: list[str] = []
    extra: dict[str, None] = {}
    for match in _TOKEN_RE.finditer(normalize(text)):
        word = match.group()
        if match.lastgroup == "latin":
            tokens.append(word)
            extra.update(dict.fromkeys(word[:n] for n in range(PREFIX_MIN_LENGTH, min(len(word), PREFIX_MAX_LENGTH + 1))))
            continue
        tokens.extend(_bigrams(word))
        extra.update(dict.fromkeys(word))
    return tokens + list(extra)


def document_text(text: str) -> str:
    """The tokens of ``text`` joined by spaces, ready for ``to_tsvector('simple', …)``."""
    return " ".join(document_tokens(text))


def query_terms(query: str) -> list[str]:
    """Tokens a query must all match: Latin words, and the bigrams of each CJK run (a lone character stays whole)."""
    terms: list[str] = []
    for match in _TOKEN_RE.finditer(normalize(query)):
        run = match.group()
        if match.lastgroup == "latin" or len(run) == 1:
            terms.append(run)
        else:
            terms.extend(_bigrams(run))
    return list(dict.fromkeys(terms))


def query_fragments(query: str) -> list[str]:
    """What to highlight in a result: each word or CJK run of the query as typed (normalised)."""
    return list(dict.fromkeys(m.group() for m in _TOKEN_RE.finditer(normalize(query))))


def tsquery_text(query: str) -> str:
    """``to_tsquery('simple', …)`` input: the AND of the query's terms (long Latin words match longer
    words through the prefixes indexed with the documents).

    Terms hold only letters and digits, so nothing in them can be read as a tsquery operator.
    """
    return " & ".join(query_terms(query))


def phrase_tsquery_text(phrase: str) -> str:
    """``to_tsquery('simple', …)`` input for ``phrase``: its tokens in order, each following the one before (``<->``),
    as documents index them (Latin words, then the bigrams of each CJK run, one position each). A lone CJK character
    between other runs has no position of its own in a document (it is indexed after the text), so it is only
    required somewhere; a phrase that is one character or one word is that term.
    """
    chained: list[str] = []
    loose: list[str] = []
    for match in _TOKEN_RE.finditer(normalize(phrase)):
        run = match.group()
        if match.lastgroup == "latin":
            chained.append(run)
        elif len(run) == 1:
            loose.append(run)
        else:
            chained.extend(_bigrams(run))
    return " & ".join(part for part in (" <-> ".join(chained), *dict.fromkeys(loose)) if part)
