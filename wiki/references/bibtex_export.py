"""Sources written as BibTeX/biblatex that LaTeX, reference managers and our own importer read back the same.

bibtexparser writes the entries, in UTF-8 as the file says (Better BibTeX's default): letters of any script are
written as they are (``Vulić``, ``Καρυωτάκης``, ``张昆``), and only what BibTeX and LaTeX read as markup is escaped
(``&`` → ``{\\&}``, ``_``, ``%``, ``#``, ``$``, braces, ``"`` braced), with TeX's ligatures (``--``, two backquotes or
apostrophes, ``!`` or ``?`` before a backquote, ``,,``) kept apart so that they do not turn into dashes, quotes and
inverted marks; a Unicode sub- or superscript is math (CuInS₂ → ``CuInS$_2$``). A person's name is written as
BibTeX splits it (``Xu, Frank F.``, ``Frank F. Xu``, ``Ludwig van Beethoven``); an organisation's is braced whole
(``{Qwen Team of Alibaba}``). Each entry carries what the importer reads: ``shorttitle`` (the short name),
``eprint`` with ``archivePrefix`` for arXiv, ``doi``, ``url``, and biblatex's ``entrysubtype`` for a kind the
entry type alone does not say (a survey, a benchmark, a framework). A venue is ``organization`` where ``howpublished``
would be read as the work's address (an ``@online`` entry, a venue that is a URL).

Citation keys are stable (:mod:`wiki.references.citation_keys`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from bibtexparser.entrypoint import write_string
from bibtexparser.library import Library
from bibtexparser.middlewares.parsestack import default_unparse_stack
from bibtexparser.model import Entry, Field
from pylatexenc.latexencode import (
    RULE_DICT,
    UnicodeToLatexConversionRule,
    UnicodeToLatexEncoder,
    get_builtin_conversion_rules,
)

from wiki.models import Source, SourceKind
from wiki.references.bibtex import KIND_BY_ENTRY_TYPE, _kind
from wiki.references.bibtex_macros import MONTHS
from wiki.references.citation_keys import citation_keys
from wiki.references.draft import BIBLIOGRAPHIC_FIELDS, VENUE_FIELDS, short_name_from_title
from wiki.references.extra_fields import KEPT_ELSEWHERE, NAME_FIELDS, VERBATIM_FIELDS
from wiki.references.latex import scripts_as_math
from wiki.references.names import author_names, bibtex_name, is_et_al, is_organisation, unbraced

# Where an entry type puts the work's venue.
VENUE_FIELD_BY_ENTRY_TYPE = {
    "article": "journal", "inproceedings": "booktitle", "conference": "booktitle", "incollection": "booktitle",
    "inbook": "booktitle", "phdthesis": "school", "mastersthesis": "school", "thesis": "school",
    "techreport": "institution", "report": "institution", "book": "publisher", "proceedings": "publisher",
    "collection": "publisher",
}
ENTRY_TYPE_BY_KIND: dict[str, str] = {
    SourceKind.PAPER: "article", SourceKind.PREPRINT: "misc", SourceKind.PROJECT: "software", SourceKind.BLOG: "online",
    SourceKind.NOTE: "report", SourceKind.SURVEY: "article", SourceKind.ENVIRONMENT: "software",
    SourceKind.FRAMEWORK: "software",
}
# pylatexenc's rules for the ASCII characters LaTeX reads as markup (& % # _ $ { } \\ ~ ^ < >), every other
# character kept as it is.
_SPECIALS = {code: latex for code, latex in get_builtin_conversion_rules("defaults")[0].rule.items() if code < 128}
_ENCODER = UnicodeToLatexEncoder(
    non_ascii_only=False, replacement_latex_protection="braces-all", unknown_char_policy="keep",
    unknown_char_warning=False,
    conversion_rules=[UnicodeToLatexConversionRule(RULE_DICT, {**_SPECIALS, ord('"'): '{"}',
                                                               ord("^"): r"{\textasciicircum}"})],
)
# The encoder's rules apply to one character at a time and keep every other character: the same rules as a table for
# str.translate, which costs a pass in C where the encoder spent some 40 µs on each value (0.4 s on 10,000 works).
_ESCAPES = str.maketrans({chr(code): _ENCODER.unicode_to_latex(chr(code)) for code in range(128)
                          if _ENCODER.unicode_to_latex(chr(code)) != chr(code)})


# Pairs TeX reads as one character: -- and --- (dashes), `` and '' (quotes), !` and ?` (¡ ¿), ,, (T1's „).
_LIGATURE = re.compile(r"(?<!\\)([-`',])(?=\1)|(?<!\\)([!?])(?=`)")

_URL_IN_VENUE = re.compile(r"https?://", re.IGNORECASE)
# What would not stay one value written verbatim (an identifier or a date holds none of it).
_TEX_MARKUP = re.compile(r"[{}\\]")


def latex_escaped(value: str) -> str:
    """``value`` as UTF-8 LaTeX that decodes back to it: specials escaped, letters of every script as they are,
    sub- and superscripts as math and math the work kept as written as it is (:func:`scripts_as_math`)."""
    return scripts_as_math(value, _escaped_text)


def _escaped_text(value: str) -> str:
    return _LIGATURE.sub(lambda m: m.group() + "{}", value.translate(_ESCAPES))


def _pages(pages: str) -> str:
    """A page range as BibTeX writes one, its dash two hyphens (``12248--12267``)."""
    return "--".join(latex_escaped(part) for part in re.split(r"\s*[–—]\s*|-{1,3}", str(pages)))


def bibtex_persons(authors: str) -> str:
    """A name list as the wiki keeps it as BibTeX's ``author`` field holds one: ``Vuli\\'c, Ivan and {Qwen Team} and
    others``, LaTeX-escaped."""
    return " and ".join(_person(name) for name in author_names(authors))


@lru_cache(maxsize=65536)
def _person(name: str) -> str:
    """One author as BibTeX's name list holds it; kept once worked out, as a library names the same people again and
    again (a third of an export's time went on telling people from organisations)."""
    if is_et_al(name):
        return "others"
    if is_organisation(name):
        # braced, so that BibTeX neither splits it nor takes its last word for a family name
        return f"{{{latex_escaped(unbraced(name))}}}"
    return latex_escaped(bibtex_name(name))


def bibtex_entry(source: Source, key: str) -> Entry:
    """One source as an entry; values LaTeX-encoded (the writer braces them), except the verbatim ``url``, ``doi``
    and ``eprint``; the title braced once more, so that styles keep its capitals."""
    # the type the work was imported as, else one its kind calls for
    entry_type = source.entry_type if source.entry_type in KIND_BY_ENTRY_TYPE else ENTRY_TYPE_BY_KIND.get(source.kind, "misc")
    plain: dict[str, str] = {}
    fields: list[tuple[str, str]] = [("title", f"{{{latex_escaped(source.title)}}}")]
    # the short name, also when it is the whole title where the importer would make a shorter one of it
    if source.short_name and not source.short_name == source.title == short_name_from_title(source.title):
        fields.append(("shorttitle", latex_escaped(source.short_name)))
    if source.authors:
        fields.append(("author", bibtex_persons(source.authors)))
    if source.year:
        fields.append(("year", str(source.year)))
    venue_field = ""
    if source.venue:
        # biblatex's @online has no howpublished, and the importer reads a URL there as the work's address.
        # the field the reference file gave it in (a thesis' institution, the publisher of proceedings), else the one
        # its entry type calls for
        venue_field = next((name for name in VENUE_FIELDS if source.bibliographic.get(name) == source.venue), "") or (
            VENUE_FIELD_BY_ENTRY_TYPE.get(entry_type)
            or ("organization" if entry_type == "online" or _URL_IN_VENUE.search(source.venue) else "howpublished"))
        # the venue as the file wrote it where the wiki read it as arXiv ("arXiv preprint arXiv:2210.03629")
        given = source.bibliographic.get(venue_field, "")
        venue = given if source.venue == "arXiv" and given.lower().startswith("arxiv") else source.venue
        fields.append((venue_field, latex_escaped(venue)))
        if venue_field in ("journal", "booktitle"):
            plain[venue_field] = venue
    # what the reference file said besides (pages, volume, the publisher of proceedings…), the venue as edited
    fields += [(name, _pages(value) if name == "pages" else latex_escaped(str(value)))
               for name, value in source.bibliographic.items()
               if name in BIBLIOGRAPHIC_FIELDS and name != venue_field and value]
    if source.arxiv_id:
        fields += [("eprint", source.arxiv_id), ("archiveprefix", "arXiv")]
    if source.doi:
        fields.append(("doi", source.doi))
    if source.url:
        fields.append(("url", source.url))
    if source.abstract:
        fields.append(("abstract", latex_escaped(source.abstract)))
    if source.notes:
        fields.append(("note", latex_escaped(source.notes)))
    subtype = [("entrysubtype", source.kind)] if _kind(entry_type, plain, source.arxiv_id, source.url) != source.kind else []
    fields += _other_fields(source, written={name for name, _ in fields + subtype}) + subtype
    return Entry(entry_type, key, [_month(value) if name == "month" else Field(name, value) for name, value in fields])


def _other_fields(source: Source, *, written: set[str]) -> list[tuple[str, str]]:
    """The fields the reference file gave that the wiki has no place for, as they came, but for one the entry writes
    already, and a ``date`` that no longer agrees with the work's year (the year was corrected since)."""
    fields = []
    for name, value in source.extra_fields.items():
        if name in written or name in KEPT_ELSEWHERE or not value:
            continue
        if name == "date" and not (source.year and value.startswith(str(source.year))):
            continue
        if name in NAME_FIELDS:
            fields.append((name, bibtex_persons(value)))
        elif name in VERBATIM_FIELDS and not _TEX_MARKUP.search(value):
            fields.append((name, value))  # as biblatex reads them: verbatim, no LaTeX
        else:
            fields.append((name, latex_escaped(value)))
    return fields


def _month(value: str) -> Field:
    """A month kept as a number (what BibTeX's ``aug`` stands for) written as BibTeX's macro, unbraced, which every
    style prints as the month's name; any other month as written."""
    if value.isdigit() and 1 <= int(value) <= len(MONTHS):
        return Field("month", MONTHS[int(value) - 1], enclosing="no-enclosing")
    return Field("month", value)


def dump_bibtex(sources: Iterable[Source]) -> str:
    """The sources as one BibTeX file, in the order given."""
    sources = list(sources)
    keys = citation_keys(sources)
    library = Library([bibtex_entry(source, keys[source.pk]) for source in sources])
    # A first line even when no work matched: an empty body would be no file at all to some clients.
    header = f"% {len(sources)} {'work' if len(sources) == 1 else 'works'}, UTF-8\n"
    # The entries are this call's own: braced in place, not deep-copied first (a third of the time, and
    # bibtexparser warns of the copy from 10,000 entries on).
    return header + write_string(library, unparse_stack=default_unparse_stack(allow_inplace_modification=True))
