"""What a search asks the index for (:class:`Words`), and a query read into it (:func:`read_query`).

A query's words are read against the glossary (``wiki.search.terms``): a term it names is searched by all its
names. Its operators (``wiki.search.syntax``) add to that: a quoted phrase is one condition, its words following
each other (``<->`` in the tsquery, on the positions the documents' tokens hold), searched as written; an OR is one
condition whose alternatives are its sides'; and what it excludes is one condition more that a document must fail
(``excluded``), each excluded word as a search for it alone would find it, in either spelling but by no other name.
"""

from __future__ import annotations

from dataclasses import dataclass

from wiki.models import SearchDocument
from wiki.search.index import SOURCE_TITLE_SEPARATOR
from wiki.search.spelling import other_spelling
from wiki.search.syntax import Piece, Understood
from wiki.search.terms import Expansion, Glossary, Term
from wiki.search.tokenize import phrase_tsquery_text, query_terms, tsquery_text

# One alternative of a search: a ``to_tsquery('simple', …)`` text of words AND'ed (empty for none) and markers.
Alternative = tuple[str, tuple[str, ...]]


@dataclass(frozen=True)
class Words:
    """What a search asks the index for: the AND of its groups, each the OR of its alternatives (a term's names,
    and the markers of the works classified as what it names, ``@mechanism-…``), and what ranks first: the works
    with the mechanisms or verdicts named, the pages defining the terms named."""

    groups: tuple[tuple[Alternative, ...], ...] = ()
    pinned_pages: tuple[int, ...] = ()
    pinned_mechanisms: tuple[str, ...] = ()
    pinned_verdicts: tuple[str, ...] = ()
    exact_name: str = ""  # the query as typed: a page, work or question called exactly so ranks first of all
    excluded: str = ""  # a ``to_tsquery('simple', …)`` text no document found may match

    @classmethod
    def of(cls, tsquery: str) -> Words:
        """Plain words: a tsquery text and nothing pinned."""
        return cls(groups=(((tsquery, ()),),) if tsquery else ())

    @classmethod
    def identifier(cls, forms: tuple[str, ...], *, exact_name: str = "") -> Words:
        """An arXiv ID or DOI, in each form a work may hold it: its words in any of them."""
        return cls(
            groups=(tuple((text, ()) for form in forms if (text := tsquery_text(form))),), exact_name=exact_name.strip()
        )

    @classmethod
    def expanded(cls, expansion: Expansion, *, exact_name: str = "") -> Words:
        return cls.of_groups(_expansion_groups(expansion), terms=expansion.terms, exact_name=exact_name)

    @classmethod
    def of_groups(
        cls, groups: list[tuple[Alternative, ...]], *, terms: tuple[Term, ...], exact_name: str = "", excluded: str = ""
    ) -> Words:
        """``groups`` to match, the pages and classifications of ``terms`` ranked first."""
        pages = tuple(dict.fromkeys(term.page_id for term in terms if term.page_id is not None))
        return cls(
            groups=tuple(groups),
            pinned_pages=pages,
            exact_name=exact_name.strip(),
            excluded=excluded,
            pinned_mechanisms=tuple(dict.fromkeys(t.mechanism for t in terms if t.mechanism)),
            pinned_verdicts=tuple(dict.fromkeys(t.verdict for t in terms if t.verdict)),
        )

    def sql(self) -> tuple[str, list[list[str]], str, str, dict[str, object]]:
        """The whole tsquery (for ranking), the conditions to match (each the OR of its alternatives, the conditions
        AND'ed; each alternative a tsquery expression), how pinned a document ``d`` is (2: called exactly what
        the query says; 1: a work classified as, or the page defining, a term it names; 0: neither), the condition
        leaving out what the query excludes (``AND …``, or nothing), and their parameters."""
        params: dict[str, object] = {}

        def expression(text: str, markers: tuple[str, ...], name: str) -> str:
            parts = []
            if text:
                params[f"{name}_words"] = text
                parts.append(f"to_tsquery('simple', %({name}_words)s)")
            if markers:
                params[f"{name}_markers"] = " & ".join(tsquery_operand(m) for m in markers)
                parts.append(f"%({name}_markers)s::tsquery")
            return "(" + " && ".join(parts) + ")"

        by_group = [
            [expression(text, markers, f"g{i}_{j}") for j, (text, markers) in enumerate(group)]
            for i, group in enumerate(self.groups)
        ]
        whole = " && ".join("(" + " || ".join(group) + ")" for group in by_group)
        # Each group is matched on its own (each posting list is read once a step, whatever the other groups).
        conditions = by_group
        # From plain columns: reading the candidates' vectors again would cost more than the search itself.
        pinned = []
        if self.pinned_mechanisms:
            params["pinned_mechanisms"] = list(self.pinned_mechanisms)
            pinned.append("d.mechanisms && %(pinned_mechanisms)s::varchar[]")
        if self.pinned_verdicts:
            params["pinned_verdicts"] = list(self.pinned_verdicts)
            pinned.append("d.verdicts && %(pinned_verdicts)s::varchar[]")
        if self.pinned_pages:
            params["pinned_pages"] = list(self.pinned_pages)
            pinned.append(
                f"(d.kind = '{SearchDocument.Kind.PAGE.value}' AND d.object_id = ANY(%(pinned_pages)s::bigint[]))"
            )
        ranked_first = "false"
        if self.exact_name:
            # A work's document title is its short name, or "short name — title" when they differ.
            params["exact_name"] = self.exact_name.lower()
            params["exact_prefix"] = f"{self.exact_name.lower()}{SOURCE_TITLE_SEPARATOR}"
            params["exact_suffix"] = f"{SOURCE_TITLE_SEPARATOR}{self.exact_name.lower()}"
            ranked_first = (
                f"(d.kind <> '{SearchDocument.Kind.CLAIM.value}' AND (lower(d.title) = %(exact_name)s"
                f" OR (d.kind = '{SearchDocument.Kind.SOURCE.value}' AND (starts_with(lower(d.title), %(exact_prefix)s)"
                " OR right(lower(d.title), char_length(%(exact_suffix)s)) = %(exact_suffix)s))))"
            )
        # Not an index condition: checked on the vectors of the documents the other conditions found, as a
        # phrase is.
        excluding = ""
        if self.excluded:
            params["excluded"] = self.excluded
            excluding = " AND NOT d.vector @@ to_tsquery('simple', %(excluded)s)"
        return (
            f"({whole})",
            conditions,
            f"(CASE WHEN {ranked_first} THEN 2 WHEN {' OR '.join(pinned) or 'false'} THEN 1 ELSE 0 END)",
            excluding,
            params,
        )


def tsquery_operand(lexeme: str) -> str:
    """A marker as a tsquery operand (markers hold no quotes)."""
    return f"'{lexeme}'"


def _expansion_groups(expansion: Expansion) -> list[tuple[Alternative, ...]]:
    """The conditions for words read against the glossary: each term named, by any of its names (and its markers);
    each word with a British and an American spelling, by either; the other words together."""
    groups: list[tuple[Alternative, ...]] = []
    for term in expansion.terms:
        alternatives = [(text, ()) for text in term.alternatives()] + [("", (marker,)) for marker in term.markers]
        if alternatives:
            groups.append(tuple(alternatives))
    plain: list[str] = []
    for word in query_terms(expansion.rest):
        if other := other_spelling(word):
            groups.append(((word, ()), (other, ())))
        else:
            plain.append(word)
    if plain:
        groups.append((((" & ".join(plain)), ()),))
    return groups


@dataclass(frozen=True)
class Reading:
    """A query read for the index: what to ask it for, the glossary terms named, and the words no name took."""

    words: Words
    terms: tuple[Term, ...] = ()
    rest: str = ""


def read_query(understood: Understood, glossary: Glossary, *, exact_name: str = "") -> Reading:
    """The conditions of ``understood``: a run of words as the glossary reads it, a phrase as written, an OR as
    one condition (a side that is a word naming a term by any of its names; a side the glossary reads into several
    conditions, by its words together), and no document holding what it excludes."""
    groups: list[tuple[Alternative, ...]] = []
    terms: dict[str, Term] = {}
    rests: list[str] = []

    def read(piece: Piece, *, whole: bool = False) -> list[tuple[Alternative, ...]]:
        """``piece``'s conditions; ``whole``: one at most, a word the glossary reads into several searched by its
        words together (as one side of an OR)."""
        if piece.phrase:
            return [((text, ()),)] if (text := phrase_tsquery_text(piece.text)) else []
        expansion = glossary.expand(piece.text)
        found = _expansion_groups(expansion)
        if whole and len(found) > 1:
            rests.append(piece.text)
            return [((tsquery_text(piece.text), ()),)]
        terms.update((term.slug, term) for term in expansion.terms)
        rests.append(expansion.rest)
        return found

    for clause in understood.clauses:
        if len(clause) == 1:
            groups.extend(read(clause[0]))
            continue
        alternatives = [alternative for piece in clause for group in read(piece, whole=True) for alternative in group]
        if alternatives:
            groups.append(tuple(dict.fromkeys(alternatives)))
    excluded = " | ".join(f"({text})" for piece in understood.excluded if (text := _excluded_text(piece)))
    words = Words.of_groups(groups, terms=tuple(terms.values()), exact_name=exact_name, excluded=excluded)
    return Reading(words=words, terms=tuple(terms.values()), rest=" ".join(filter(None, rests)))


def _excluded_text(piece: Piece) -> str:
    """What a search for ``piece`` alone would match, glossary aside: a phrase's words in order, or a word's terms
    (each in either spelling)."""
    if piece.phrase:
        return phrase_tsquery_text(piece.text)
    return " & ".join(
        f"({word} | {other})" if (other := other_spelling(word)) else word for word in query_terms(piece.text)
    )
