"""The glossary as search reads it: which terms a query names, what to search for instead, and close terms.

A query naming a term (by any name or alias, in either language) searches for all of its names: the tsquery
gets the OR of the names where the query had the one it typed. A term that names a mechanism or a verdict also
matches the works classified so (markers in their search vectors, ``wiki.search.index``), and its defining page
ranks first among pages. A term named in Chinese is also named by the name's pinyin, without tones and however the
syllables are spaced (``qianghua xuexi``, ``qianghuaxuexi`` for 强化学习), as a reader without a Chinese input method
types it. The glossary is read once per content version and kept in the cache, so a search costs no query for it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

from rapidfuzz.distance import OSA

from wiki.caching.values import kept_per_version
from wiki.models import GlossaryTerm
from wiki.search.spelling import respelled
from wiki.search.tokenize import PREFIX_MAX_LENGTH, PREFIX_MIN_LENGTH, normalize, query_terms, token_pattern
from wiki.text.slugs import in_pinyin

MAX_SUGGESTIONS = 6
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
PINYIN_MIN_TYPED = 3


def match_form(text: str) -> str:
    """``text`` as names are compared with queries: its tokens, lower case, one space apart (``Actor-Critic`` →
    ``actor critic``), so that punctuation and spacing never decide whether a query names a term."""
    return " ".join(m.group() for m in token_pattern().finditer(normalize(text)))


def _is_latin(char: str) -> bool:
    return (char.isascii() and char.isalnum()) or "\u00df" <= char <= "\u024f"


def mechanism_marker(mechanism: str) -> str:
    """In the vector of every work classified with ``mechanism``; never produced by the tokenizer."""
    return f"@mechanism-{mechanism}"


def verdict_marker(verdict: str) -> str:
    return f"@verdict-{verdict}"


@dataclass(frozen=True)
class Term:
    slug: str
    name_zh: str
    name_en: str
    names: tuple[str, ...]
    mechanism: str = ""
    verdict: str = ""
    page_id: int | None = None
    # The pinyin of each name with two Chinese characters or more, lower case, no tones, no spaces (强化学习:
    # ``qianghuaxuexi``); a Latin word in the name stays as it is (参数空间 ES: ``canshukongjianes``).
    pinyin: tuple[str, ...] = ()

    @property
    def markers(self) -> list[str]:
        return [m for m in (self.mechanism and mechanism_marker(self.mechanism), self.verdict and verdict_marker(self.verdict)) if m]

    @property
    def spellings(self) -> list[str]:
        """Its names, then those spelled the other way, British or American (``preference optimisation`` beside
        ``preference optimization``: ``wiki.search.spelling``)."""
        forms = [match_form(name) for name in self.names]
        return list(dict.fromkeys([*self.names, *(other for form in forms if (other := respelled(form)) != form)]))

    def alternatives(self) -> list[str]:
        """Its names (in either spelling) as ``to_tsquery('simple', …)`` texts, each the AND of the name's terms. A
        name whose terms include all of another's adds nothing (``策略梯度方法`` beside ``策略梯度``) and is left
        out, so the index reads no posting list it does not need."""
        kept: list[list[str]] = []
        for name in sorted(self.spellings, key=lambda n: len(query_terms(n))):
            terms = query_terms(name)
            if terms and not any(_implied(other, by=terms) for other in kept):
                kept = [other for other in kept if not _implied(terms, by=other)] + [terms]
        return [" & ".join(terms) for terms in kept]


@dataclass(frozen=True)
class Expansion:
    """A query read against the glossary: the terms it names, and the words left over."""

    terms: tuple[Term, ...] = ()
    rest: str = ""


@dataclass(frozen=True)
class Suggestion:
    term: Term
    name: str  # the name closest to what was typed


@dataclass
class Glossary:
    terms: list[Term] = field(default_factory=list)

    @cached_property
    def _by_form(self) -> dict[str, Term]:
        found: dict[str, Term] = {}
        for term in self.terms:
            for name in term.names:
                if form := match_form(name):
                    found.setdefault(form, term)
        return found

    @cached_property
    def _by_spelling(self) -> dict[str, Term]:
        """Every name's form, and the form of every name spelled the other way (British or American), with its term:
        what a query may name a term by."""
        found = dict(self._by_form)
        for form, term in self._by_form.items():
            found.setdefault(respelled(form), term)
        return found

    @cached_property
    def name_forms(self) -> list[tuple[str, str, Term]]:
        """Every name of every term with its form, a term's names in their order: read once per process and content
        version, as the glossary is."""
        return [(form, name, term) for term in self.terms for name in term.names if (form := match_form(name))]

    @cached_property
    def _pattern(self) -> re.Pattern[str] | None:
        """Every name's form in either spelling, longest first (so ``非严格`` wins over ``严格``); a form starting or
        ending with a Latin letter must not continue a Latin word of the query."""
        if not self._by_spelling:
            return None
        alternatives = []
        for form in sorted(self._by_spelling, key=len, reverse=True):
            before = r"(?<![0-9a-z\u00df-\u024f])" if _is_latin(form[0]) else ""
            after = r"(?![0-9a-z\u00df-\u024f])" if _is_latin(form[-1]) else ""
            alternatives.append(f"{before}{re.escape(form)}{after}")
        return re.compile("|".join(alternatives))

    @cached_property
    def _by_pinyin(self) -> dict[str, Term]:
        found: dict[str, Term] = {}
        for term in self.terms:
            for key in term.pinyin:
                found.setdefault(key, term)
        return found

    def _named_in_pinyin(self, typed: str) -> Term | None:
        """The term whose Chinese name ``typed`` (a query's form) spells in pinyin, spaced as it may be."""
        key = _pinyin_key(typed)
        return self._by_pinyin.get(key) if key else None

    def expand(self, query: str) -> Expansion:
        """The terms ``query`` names, by any name in either spelling (each once, in the order typed), or a whole query
        that is a Chinese name's pinyin, and what is left of it."""
        form = match_form(query)
        if (term := self._named_in_pinyin(form)) is not None and form not in self._by_spelling:
            return Expansion(terms=(term,))
        if self._pattern is None or not form:
            return Expansion(rest=form)
        terms: dict[str, Term] = {}
        rest: list[str] = []
        position = 0
        for match in self._pattern.finditer(form):
            term = self._by_spelling[match.group()]
            terms.setdefault(term.slug, term)
            rest.append(form[position : match.start()])
            position = match.end()
        rest.append(form[position:])
        return Expansion(terms=tuple(terms.values()), rest=" ".join(" ".join(rest).split()))

    def suggest(self, query: str, *, limit: int = MAX_SUGGESTIONS) -> list[Suggestion]:
        """Terms close to ``query``: a name starting with it (or with its first word), or a name a few edits
        away (misspellings: ``polcy gradient``, ``演化策落``), closest first."""
        typed = match_form(query)
        if not typed:
            return []
        scored: dict[str, tuple[tuple[int, int, str], Suggestion]] = {}
        for term in self.pinyin_starting(typed):
            scored[term.slug] = ((0, 0, ""), Suggestion(term=term, name=term.names[0]))
        for form, term in self._by_form.items():
            if form.startswith(typed) or (typed.startswith(form) and len(form) >= 2):
                score = 0
            else:
                allowed = max(1, len(typed) // 4)
                # (a transposed pair, GPRO for GRPO, is one edit)
                distance = OSA.distance(typed, form, score_cutoff=allowed)
                if distance > allowed:
                    continue
                score = distance
            key = (score, abs(len(form) - len(typed)), form)
            if term.slug not in scored or key < scored[term.slug][0]:
                name = next(n for n in term.names if match_form(n) == form)
                scored[term.slug] = (key, Suggestion(term=term, name=name))
        return [s for _, s in sorted(scored.values(), key=lambda item: item[0])][:limit]

    def pinyin_starting(self, typed: str) -> list[Term]:
        """Terms a Chinese name of which starts, in pinyin, with ``typed`` (a query's form, three letters at least, as
        fewer begin too many names), shortest name first."""
        key = _pinyin_key(typed)
        if len(key) < PINYIN_MIN_TYPED:
            return []
        found = {term.slug: (len(spelled), term) for spelled, term in self._by_pinyin.items() if spelled.startswith(key)}
        return [term for _, term in sorted(found.values(), key=lambda item: item[0])]


def _implied(terms: list[str], *, by: list[str]) -> bool:
    """Whether a document matching all of ``by`` matches all of ``terms``: each term is one of them, or (a Latin
    word long enough to be indexed as a prefix) starts one of them (``hack`` is implied by ``hacking``)."""
    return all(any(t == b or (t.isascii() and PREFIX_MIN_LENGTH <= len(t) <= PREFIX_MAX_LENGTH and b.startswith(t)) for b in by) for t in terms)


def _pinyin_key(typed: str) -> str:
    """A query's form as it may spell a name in pinyin (its letters, unspaced), or "" when it has anything else."""
    key = typed.replace(" ", "")
    return key if key.isascii() and key.isalpha() else ""


def pinyin_keys(names: Iterable[str]) -> tuple[str, ...]:
    """Each name's pinyin as a term keeps it (:attr:`Term.pinyin`), for the names with two Chinese characters or more;
    ü written both ways readers type it (策略: ``celve`` and ``celue``)."""
    keys = [key for name in names if len(_HAN.findall(name)) >= 2 and (key := "".join(in_pinyin(match_form(name)).split()))]
    return tuple(dict.fromkeys(spelled for key in keys for spelled in (key, key.replace("v", "u"))))


def _load() -> Glossary:
    rows = GlossaryTerm.objects.only("slug", "name_zh", "name_en", "aliases_zh", "aliases_en", "mechanism", "verdict", "page_id")
    return Glossary(terms=[
        Term(slug=t.slug, name_zh=t.name_zh, name_en=t.name_en, names=tuple(t.names), mechanism=t.mechanism,
             verdict=t.verdict, page_id=t.page_id, pinyin=pinyin_keys(t.names))
        for t in rows.order_by("id")
    ])


def current_glossary(*, version: int | None = None) -> Glossary:
    """The glossary as of the content ``version`` (the current one by default: a request passes the version it
    already read): this process's copy, else the shared cache's, else one query."""
    return kept_per_version("glossary", _load, version=version)
