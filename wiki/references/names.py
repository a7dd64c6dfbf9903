"""The authors of a work, as the wiki keeps them and as BibTeX and CSL-JSON name them.

A work keeps its authors as one text, the names apart by semicolons: a person as ``Family, Given``, ``Given Family``
or BibTeX's ``von Last, Jr, First``; a name written in Chinese as it is written (张伟); ``et al.``; and an
organisation as its name, braced where the wiki could not tell it from a person (``{Google DeepMind}``), as BibTeX
braces a name to keep it whole. A person is split as BibTeX splits a name (bibtexparser's
``parse_single_name_into_parts``: the lower-case words before the family name are its particle, ``van``, ``de la``),
and written in CSL-JSON as Zotero writes one: ``family``, ``given``, ``non-dropping-particle`` for the particle before
the family name, ``dropping-particle`` for one after the given names (``Beethoven, Ludwig van``), ``suffix``; an
organisation, a name in Chinese or a single word is a ``literal``. A list ending in ``et al.`` (BibTeX's ``and others``)
goes on past the names it gives: CSL-JSON has no name for that, so the list is written without it and the wiki says in
the item's ``custom`` which lists go on (:func:`csl_names`, :func:`names_from_csl`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bibtexparser.middlewares.names import parse_single_name_into_parts, split_multiple_persons_names

from wiki.references.draft import person_name
from wiki.references.latex import latex_to_text
from wiki.text.spaces import collapse_spaces

ET_AL = "et al."
# Lower-case words of a personal name before the family name (Ludwig van Beethoven, Paco de la Fuente).
PARTICLES = frozenset({
    "van", "von", "de", "der", "den", "del", "della", "dei", "degli", "di", "da", "das", "dos", "do", "du", "la", "le",
    "les", "lo", "ten", "ter", "te", "zu", "zum", "zur", "y", "e", "bin", "binti", "ibn", "al", "el", "af", "av",
})
# Words that make a name an organisation: BibTeX would otherwise take its last word for a family name.
_ORGANISATION_WORDS = frozenset({
    "team", "lab", "labs", "laboratory", "laboratories", "group", "inc", "ltd", "llc", "gmbh", "corp", "corporation",
    "company", "university", "institute", "foundation", "project", "community", "consortium", "research", "center",
    "centre", "committee", "council", "association", "society", "organization", "organisation", "department",
    "contributors", "developers", "authors", "ai",
})
# What follows a person's name after a comma when it is no given name: Martin Luther King, Jr.
_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "v", "2nd", "3rd"})
# Scripts that write a name without a space between its family and given names (张伟, 山田太郎, 김민준).
_UNSPACED_SCRIPT = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]")
_BRACE = re.compile(r"(?<!\\)[{}]")
_ET_AL = frozenset({"others", "et al", "et al."})


@dataclass(frozen=True)
class PersonName:
    """A person's name split as BibTeX splits one: ``von Last, Jr, First``."""

    family: str
    given: str = ""
    particle: str = ""  # BibTeX's "von" part, before the family name
    suffix: str = ""  # BibTeX's "Jr" part


def author_names(authors: str) -> list[str]:
    """The names of an author list as the wiki keeps it, apart."""
    return [name.strip() for name in authors.split(";") if name.strip()]


def is_et_al(name: str) -> bool:
    return name.strip().lower() in _ET_AL


def is_braced(name: str) -> bool:
    """Whether ``name`` is one brace group whole (``{Google DeepMind}``; not ``{\\'E}mile Zola``)."""
    name = name.strip()
    if len(name) < 2 or name[0] != "{" or name[-1] != "}":
        return False
    depth = 0
    for match in _BRACE.finditer(name):
        depth += 1 if match.group() == "{" else -1
        if depth == 0 and match.end() < len(name):
            return False
    return depth == 0


def unbraced(name: str) -> str:
    """A name as readers see it: an organisation's without the braces the wiki keeps it whole by."""
    name = name.strip()
    return name[1:-1].strip() if is_braced(name) else name


def is_organisation(name: str) -> bool:
    """Whether an author as the wiki keeps it is not a person: braced, or with a word that names a body (Team, Lab,
    University…), ``and``, or a lower-case word that is no particle (of, for)."""
    if is_braced(name):
        return True
    words = [word.strip(".,()").lower() for word in name.split()]
    if any(word in _ORGANISATION_WORDS for word in words) or "and" in words or "&" in name:
        return True
    if "," in name or len(words) < 2:
        return False
    # A lower-case word with an apostrophe is a particle too: d'Alembert, dell'Acqua.
    return any(not word[:1].isalpha() or (raw[:1].islower() and word not in PARTICLES and "'" not in word)
               for word, raw in zip(words, name.split(), strict=True))


def kept_whole(name: str) -> str:
    """An organisation's (or any name not to be split) as the wiki keeps it: as it is where the wiki already reads it
    whole (``Qwen Team``, ``OpenAI``, ``张三``), else braced (``{Google DeepMind}``, ``{Barnes, Noble}``)."""
    name = collapse_spaces(name)
    if not name or is_organisation(name) or not re.search(r"[\s,]", name):
        return name
    return f"{{{name}}}"


def from_bibtex(value: str) -> str:
    """A BibTeX name list as the wiki keeps one: ``Vuli\\'c, Ivan and {World Health Organization} and others`` →
    ``Vulić, Ivan; World Health Organization; et al.``; names split by bibtexparser, each decoded, a name braced
    whole an organisation's (:func:`kept_whole`)."""
    names = []
    for name in split_multiple_persons_names(value):
        if is_braced(name):
            names.append(kept_whole(latex_to_text(unbraced(name))))
            continue
        text = latex_to_text(name)
        if is_et_al(text):
            names.append(ET_AL)
        elif text:
            family, comma, given = text.partition(",")
            names.append(person_name(family, given) if comma else text)
    return "; ".join(names)


def _unbraced_words(words: list[str]) -> str:
    return _BRACE.sub("", " ".join(words)).strip()


@lru_cache(maxsize=65536)
def person(name: str) -> PersonName | None:
    """``name`` (one author as the wiki keeps it) split as BibTeX splits it; None for what is written whole: ``et al.``,
    an organisation, a single word, a name in Chinese (with no comma, its family name is not known)."""
    name = collapse_spaces(name)
    if not name or is_et_al(name) or is_organisation(name) or ("," not in name and _UNSPACED_SCRIPT.search(name)):
        return None
    head, comma, tail = name.partition(",")
    if not comma and " " not in name:
        return None
    if comma and "," not in tail and tail.strip().lower() in _SUFFIXES:
        # "Martin Luther King, Jr.": BibTeX would take "Jr." for the given name
        parts = parse_single_name_into_parts(head, strict=False)
        parts.jr = [tail.strip()]
    else:
        parts = parse_single_name_into_parts(name, strict=False)
    family = _unbraced_words(parts.last)
    if not family:
        return None
    return PersonName(family=family, given=_unbraced_words(parts.first), particle=_unbraced_words(parts.von),
                      suffix=_unbraced_words(parts.jr))


def bibtex_name(name: str) -> str:
    """A person's name as BibTeX's ``author`` field must hold it (unescaped): ``Given Family, Jr.`` turned round
    (``King, Jr., Martin Luther``), as BibTeX would read the suffix as the given name; any other as kept."""
    parsed = person(name)
    tail = name.partition(",")[2].strip()
    if parsed is not None and parsed.suffix and tail == parsed.suffix:
        family = f"{parsed.particle} {parsed.family}".strip()
        return ", ".join(part for part in (family, parsed.suffix, parsed.given) if part)
    return name


def goes_on(names: str) -> bool:
    """Whether a name list as the wiki keeps it goes on past the names it gives (ends in ``et al.``)."""
    return any(is_et_al(name) for name in author_names(names))


def csl_names(names: str) -> list[dict[str, str]]:
    """A name list as CSL-JSON names, without its ``et al.``: CSL has no name for "the list goes on", and citeproc-js
    and Zotero would print one (``{"literal": "others"}``) as an author called so; styles add their own "et al."."""
    return [csl_name(name) for name in author_names(names) if not is_et_al(name)]


def csl_name(name: str) -> dict[str, str]:
    """One author as a CSL-JSON name: a person's parts as Zotero writes them, anything else a ``literal``."""
    parsed = person(name)
    if parsed is None:
        return {"literal": unbraced(name)}
    words = parsed.given.split()
    dropping: list[str] = []
    # Lower-case particles ending the given names are CSL's dropping particle (Beethoven, Ludwig van), as
    # citeproc-js parses a Zotero name
    while len(words) > 1 and words[-1] in PARTICLES:
        dropping.insert(0, words.pop())
    item = {"family": parsed.family}
    if words:
        item["given"] = " ".join(words)
    if dropping:
        item["dropping-particle"] = " ".join(dropping)
    if parsed.particle:
        item["non-dropping-particle"] = parsed.particle
    if parsed.suffix:
        item["suffix"] = parsed.suffix
    return item


def _text(value: Any) -> str:
    return collapse_spaces(str(value)) if isinstance(value, (str, int, float)) else ""


def name_from_csl(person_: Any) -> str:
    """A CSL-JSON name as the wiki keeps one: a ``literal`` whole (braced where the wiki would split it), a person's
    parts as BibTeX's ``von Last, Jr, First``, a Chinese name split by a reference manager as written (张, 伟 → 张伟);
    a name given as a string (not CSL, but written by hand and by some tools) as it is."""
    if isinstance(person_, str):
        literal = _text(person_)
        return ET_AL if is_et_al(literal) else literal
    if not isinstance(person_, dict):
        return ""
    if person_.get("literal"):
        literal = _text(person_["literal"])
        return ET_AL if is_et_al(literal) else kept_whole(literal)
    family = " ".join(_text(person_.get(part)) for part in ("non-dropping-particle", "family") if _text(person_.get(part)))
    given = " ".join(_text(person_.get(part)) for part in ("given", "dropping-particle") if _text(person_.get(part)))
    suffix = _text(person_.get("suffix"))
    if not given and not suffix:
        return kept_whole(family) if not person_.get("non-dropping-particle") else family
    if suffix:
        return ", ".join(part for part in (family, suffix, given) if part)
    return person_name(family, given)


def names_from_csl(persons: list[Any], *, going_on: bool = False) -> str:
    """A CSL-JSON name list as the wiki keeps one, ending in ``et al.`` where the item says it goes on (or names an
    author ``others``, as Pandoc writes BibTeX's ``and others``)."""
    names = [name for name in (name_from_csl(person_) for person_ in persons) if name]
    if going_on and not (names and is_et_al(names[-1])):
        names.append(ET_AL)
    return "; ".join(names)
