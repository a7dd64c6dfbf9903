"""What a query asks for beyond its words: quoted phrases, words and phrases it excludes, and OR between two terms.

The operators readers know from MediaWiki's and web search boxes:

* ``"proxy dense rewards"`` (straight or curly quotes, “…” as a Chinese input method types them) finds those words
  in that order, next to each other; in Chinese, that run of characters. A phrase is searched as written, not by
  a glossary term's other names. A quote left open is closed at the end of the query.
* ``-hacking`` and ``-"reward model"`` leave out what contains the word or the phrase. Only a ``-`` starting a
  term excludes: a lone ``-`` and the hyphens inside ``multi-turn``, ``GRPO-based`` or ``强化学习-奖励`` are read as
  before.
* ``GRPO OR PPO`` (``OR`` in capitals, between two terms that are not excluded) finds either; it binds the terms
  next to it (``policy GRPO OR PPO`` is policy and either of the other two).

Words outside quotes and ORs are read as they always were, a run of them against the glossary
(``wiki.search.terms``).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from wiki.search.tokenize import query_terms

# A straight quote opens or closes a phrase, and so does either curly one: readers' keyboards pair them loosely.
QUOTES = frozenset('"“”')
OR = "OR"


@dataclass(frozen=True)
class Piece:
    """A word (or run of words, read against the glossary) or a quoted phrase."""

    text: str
    phrase: bool = False


@dataclass(frozen=True)
class Understood:
    """A query read for its operators: the AND of its clauses, each the OR of its pieces, and what it excludes."""

    clauses: tuple[tuple[Piece, ...], ...] = ()
    excluded: tuple[Piece, ...] = ()

    @property
    def phrases(self) -> list[Piece]:
        """The phrases it needs, each on its own (not one side of an OR)."""
        return [clause[0] for clause in self.clauses if len(clause) == 1 and clause[0].phrase]

    @property
    def alternatives(self) -> list[tuple[Piece, ...]]:
        """Its ORs, each the pieces any of which will do."""
        return [clause for clause in self.clauses if len(clause) > 1]

    @property
    def has_operators(self) -> bool:
        return bool(self.excluded or self.phrases or self.alternatives)

    @property
    def positive_text(self) -> str:
        """What it looks for, without its operators: the text a name is compared with."""
        return " ".join(piece.text for clause in self.clauses for piece in clause)

    @property
    def only_excludes(self) -> bool:
        """It excludes something and asks for nothing."""
        return bool(self.excluded) and not self.clauses


@dataclass(frozen=True)
class _Token:
    text: str
    phrase: bool = False
    excluded: bool = False

    @property
    def is_or(self) -> bool:
        return self.text == OR and not self.phrase and not self.excluded


def _tokens(query: str) -> list[_Token]:
    """The query's terms in order: words (up to a space or a quote), phrases (quote to quote, or to the end), each
    excluded when a ``-`` starts it."""
    tokens: list[_Token] = []
    position, end = 0, len(query)
    while position < end:
        char = query[position]
        if char.isspace():
            position += 1
            continue
        excluded = (
            char == "-" and position + 1 < end and not query[position + 1].isspace() and query[position + 1] != "-"
        )
        start = position + 1 if excluded else position
        if query[start] in QUOTES:
            close = next((i for i in range(start + 1, end) if query[i] in QUOTES), end)
            tokens.append(_Token(" ".join(query[start + 1 : close].split()), phrase=True, excluded=excluded))
            position = close + 1
            continue
        stop = next((i for i in range(start, end) if query[i].isspace() or query[i] in QUOTES), end)
        tokens.append(_Token(query[start:stop], excluded=excluded))
        position = stop
    # A phrase or an excluded word without a letter or a digit asks for nothing.
    return [
        token for token in tokens if token.text and (query_terms(token.text) or not (token.phrase or token.excluded))
    ]


def understand(query: str) -> Understood:
    """``query``'s phrases, exclusions and ORs (NFKC first, so that full-width quotes and minus signs count); words
    in a row, none of them quoted, excluded or beside an OR, stay one piece, read against the glossary together."""
    tokens = _tokens(unicodedata.normalize("NFKC", query))
    operators = {
        i
        for i, token in enumerate(tokens)
        if token.is_or and 0 < i < len(tokens) - 1 and _joins(tokens[i - 1]) and _joins(tokens[i + 1])
    }
    clauses: list[list[Piece]] = []
    excluded: list[Piece] = []
    run_open = False  # the last clause is a run of plain words the next plain word continues
    for index, token in enumerate(tokens):
        if index in operators:
            continue
        piece = Piece(token.text, phrase=token.phrase)
        if token.excluded:
            excluded.append(piece)
            run_open = False
        elif index - 1 in operators:
            clauses[-1].append(piece)
            run_open = False
        elif run_open and not piece.phrase and index + 1 not in operators:
            clauses[-1][0] = Piece(f"{clauses[-1][0].text} {piece.text}")
        else:
            clauses.append([piece])
            run_open = not piece.phrase and index + 1 not in operators
    return Understood(clauses=tuple(tuple(clause) for clause in clauses), excluded=tuple(excluded))


def _joins(token: _Token) -> bool:
    """Whether an OR beside ``token`` joins it: a term neither excluded nor itself an OR."""
    return not token.excluded and not token.is_or
