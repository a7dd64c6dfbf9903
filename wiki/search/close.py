"""Works and pages named exactly as a search (``skillforge`` leads straight to SkillForge), and those named close to
a search that found nothing: ``skilforge`` offers SkillForge, ``通义深度研宄`` offers 通义深度研究. A search that is a
work's arXiv ID, DOI or BibTeX key (``arXiv:2307.13854v2``, ``https://doi.org/10.1145/…``) leads to that work as its
name would (``wiki.search.identifiers``).

Names are compared as the glossary's are (:func:`wiki.search.terms.match_form`: tokens, lower case, one space
apart), within a few edits (one per four characters typed, at least one; two letters swapped count as one), by
RapidFuzz over every work's short name and every page's title. Each name is stored beside its form
(``Source.name_form``, ``Page.title_form``), so the works and pages named exactly as a search are one indexed look-up,
whatever the size of the wiki and however recent the last write. The close names are compared with every name: those
(with their stored forms) are read in two queries once per content version and kept in the cache, so a search that
finds nothing costs no query more while the content stays the same; the components' names, which the search box
offers as a reader types, in one more.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db.models import Q, Value
from django.db.models.functions import Concat, Lower
from django.urls import reverse
from rapidfuzz import process
from rapidfuzz.distance import OSA

from wiki.caching.values import kept_per_version
from wiki.models import Component, Page, Source
from wiki.search.identifiers import identifier_forms, query_keys
from wiki.search.syntax import understand
from wiki.search.terms import current_glossary, match_form
from wiki.search.tokenize import CJK

MAX_CLOSE_NAMES = 5
# A typed name shorter than this is too short for a close one to mean anything.
MIN_TYPED = 3


# Where each kind of name leads.
_DETAIL = {
    "source": "wiki:source-detail",
    "component": "wiki:source-detail",
    "page": "wiki:page-detail",
    "term": "wiki:glossary-detail",
}


@dataclass(frozen=True)
class CloseName:
    # "source" or "page", as search documents name their kinds; "term" for a glossary term's name; "component" for a
    # work's component offered as a reader types (a search's "Go to" names it as its work, "source", with ``component``)
    kind: str
    name: str
    slug: str
    # Another name offered beside it reads the same (two pages titled alike): the offer shows its address too.
    ambiguous: bool = False
    component: str = ""  # the slug of the work's component named, whose classification the link goes to

    @property
    def url(self) -> str:
        url = reverse(_DETAIL[self.kind], kwargs={"slug": self.slug})
        return f"{url}#component-{self.component}" if self.component else url


@dataclass(frozen=True)
class Names:
    """Every live work's short name and page's title, with their forms (the lists are parallel)."""

    forms: list[str]
    entries: list[tuple[str, str, str]]  # (kind, name, slug)


@dataclass(frozen=True)
class ComponentNames:
    """Every live work's components, offered as a reader types (never as a close name): each one's forms, its own
    name's and its work's and its (``tree grpo``, ``shepherd tree grpo``), parallel to its name as shown, its work's
    slug and its own (``Shepherd Tree-GRPO``, ``shepherd``, ``tree-grpo``)."""

    forms: list[tuple[str, str]]
    entries: list[tuple[str, str, str]]


def current_names(*, version: int | None = None) -> Names:
    """The names as of the content ``version`` (the current one by default): this process's copy, else the shared
    cache's, else two queries."""
    return kept_per_version("close-names", _load, version=version)


def current_component_names(*, version: int | None = None) -> ComponentNames:
    """The components' names as of the content ``version``, kept as :func:`current_names` keeps the names: else one
    query."""
    return kept_per_version("component-names", _load_components, version=version)


# The order names starting alike are offered in.
_RANK = {"source": 0, "component": 1, "page": 2}


def _works_first(names: Names, index: int) -> bool:
    """A sort key's part that puts works before pages."""
    return names.entries[index][0] != "source"


def _components_named(form: str) -> Q:
    """The components named ``form`` by their own name (``tree grpo``) or their work's and theirs
    (``shepherd tree grpo``): one indexed look-up of the component's form for each way of splitting the words."""
    words = form.split(" ")
    named = Q(name_form=form)
    for cut in range(1, len(words)):
        named |= Q(name_form=" ".join(words[cut:]), source__name_form=" ".join(words[:cut]))
    return named


def exact_names(query: str, *, limit: int = MAX_CLOSE_NAMES) -> list[CloseName]:
    """Works, their components and pages named ``query`` once case, spacing and accents are set aside, and the work
    whose arXiv ID, DOI or BibTeX key ``query`` is; works first (each work's components after it), then the older
    first (one query, through the indexes of the stored forms and of the identifiers)."""
    form = match_form(query)
    keys = query_keys(query)
    # arXiv IDs and DOIs are stored normalised (lower case), BibTeX keys as typed: compared as identifier_key reads them
    identified = [*identifier_forms(query), *keys]
    work = Q(arxiv_id__in=identified) | Q(doi__in=identified) | Q(bibtex_key_folded__in=keys)
    if form:
        work |= Q(name_form=form)
    works = (
        Source.objects.exclude(name_form="")
        .annotate(bibtex_key_folded=Lower("bibtex_key"))
        .filter(work)
        .annotate(order=Value(0), part=Value(0), component=Value(""))
        .order_by("pk")
        .values_list("order", "pk", "part", "short_name", "slug", "component")[:limit]
    )
    components = (
        Component.objects.filter(source__deleted_at__isnull=True)
        .filter(_components_named(form) if form else Q(pk__in=[]))
        .annotate(order=Value(0), name_shown=Concat("source__short_name", Value(" "), "name"))
        .order_by("source_id", "pk")
        .values_list("order", "source_id", "pk", "name_shown", "source__slug", "slug")[:limit]
    )
    pages = (
        Page.objects.filter(title_form=form)
        .exclude(title_form="")
        .annotate(order=Value(1), part=Value(0), component=Value(""))
        .order_by("pk")
        .values_list("order", "pk", "part", "title", "slug", "component")[:limit]
    )
    ranked = sorted(works.union(components, pages, all=True))[:limit]
    kinds = [order for order, *_ in ranked]
    return [
        CloseName("source" if order == 0 else "page", name, slug, ambiguous=kinds.count(order) > 1, component=component)
        for order, _, _, name, slug, component in ranked
    ]


def names_starting(typed: str, *, version: int | None = None, limit: int = MAX_CLOSE_NAMES) -> list[CloseName]:
    """Works, their components, pages and glossary terms whose name starts with ``typed`` (case and spacing aside),
    in that order and shortest first, then works, components and pages with a word starting with it: what the
    header's search box offers while a reader types. A component is offered by its own name or its work's and its
    (``tree`` and ``shepherd t`` offer Shepherd Tree-GRPO), and leads to its classification on its work's page. A term
    is offered once, by its first name that matches, or by its Chinese name when what is typed starts its pinyin
    (``qiangh`` offers 强化学习). Nothing for a single letter or digit (a Chinese character, a word in itself, offers
    the names it starts: ``强`` offers 强化学习), nor for a search that excludes something or offers a choice
    (``reward -hacking``, ``GRPO OR PPO``: ``wiki.search.syntax``); a name typed in quotes is offered as the name."""
    understood = understand(typed)
    if understood.excluded or understood.alternatives:
        return []
    prefix = match_form(understood.positive_text)
    if len(prefix) < 2 and not re.fullmatch(f"[{CJK}]", prefix):
        return []
    names = current_names(version=version)
    word = " " + prefix
    starting: list[int] = []
    inner: list[int] = []
    for index, form in enumerate(names.forms):
        if form.startswith(prefix):
            starting.append(index)
        elif word in form:
            inner.append(index)
    parts = current_component_names(version=version)
    parts_starting: list[int] = []
    parts_inner: list[int] = []
    for index, (own, full) in enumerate(parts.forms):
        if own.startswith(prefix) or full.startswith(prefix):
            parts_starting.append(index)
        elif word in full:
            parts_inner.append(index)
    terms: dict[str, CloseName] = {}
    glossary = current_glossary(version=version)
    for form, name, term in glossary.name_forms:
        if form.startswith(prefix):
            terms.setdefault(term.slug, CloseName("term", name, term.slug))
    # Typed in pinyin: the term by its Chinese name.
    for term in glossary.pinyin_starting(prefix):
        terms.setdefault(term.slug, CloseName("term", term.name_zh or term.names[0], term.slug))

    def ranked(found: list[int], found_parts: list[int]) -> list[CloseName]:
        """Works, then components (each its work's part), then pages; the shorter name first."""
        offers = [((_RANK[names.entries[i][0]], len(names.forms[i]), i), CloseName(*names.entries[i])) for i in found]
        for i in found_parts:
            name, work, component = parts.entries[i]
            offers.append(
                (
                    (_RANK["component"], len(parts.forms[i][1]), i),
                    CloseName("component", name, work, component=component),
                )
            )
        return [offer for _, offer in sorted(offers, key=lambda keyed: keyed[0])]

    return [
        *ranked(starting, parts_starting),
        *sorted(terms.values(), key=lambda c: len(c.name)),
        *ranked(inner, parts_inner),
    ][:limit]


def close_names(query: str, *, version: int | None = None, limit: int = MAX_CLOSE_NAMES) -> list[CloseName]:
    """Works and pages whose name is a few edits from ``query``, closest first (works before pages at a tie)."""
    typed = match_form(query)
    if len(typed) < MIN_TYPED:
        return []
    names = current_names(version=version)
    allowed = max(1, len(typed) // 4)
    found = process.extract(typed, names.forms, scorer=OSA.distance, score_cutoff=allowed, limit=limit * 4)
    ranked = sorted(found, key=lambda f: (f[1], _works_first(names, f[2]), f[2]))[:limit]
    return [CloseName(*names.entries[index]) for _, _, index in ranked]


def _load() -> Names:
    names = Names(forms=[], entries=[])
    for kind, rows in (
        ("source", Source.objects.exclude(name_form="").order_by("pk").values_list("short_name", "slug", "name_form")),
        ("page", Page.objects.exclude(title_form="").order_by("pk").values_list("title", "slug", "title_form")),
    ):
        for name, slug, form in rows:
            names.forms.append(form)
            names.entries.append((kind, name, slug))
    return names


def _load_components() -> ComponentNames:
    parts = ComponentNames(forms=[], entries=[])
    rows = (
        Component.objects.filter(source__deleted_at__isnull=True)
        .exclude(name_form="")
        .order_by("source_id", "pk")
        .values_list("source__short_name", "name", "source__slug", "slug", "source__name_form", "name_form")
    )
    for work, name, work_slug, slug, work_form, form in rows:
        parts.forms.append((form, f"{work_form} {form}"))
        parts.entries.append((f"{work} {name}", work_slug, slug))
    return parts
