"""Sources written as BibTeX/biblatex that LaTeX, reference managers and our own importer read back the same.

bibtexparser writes the entries; pylatexenc encodes the values (``Vulić`` → ``Vuli{\\'c}``, ``&`` → ``{\\&}``),
with ``"`` braced and ``--`` kept apart so that they do not turn into quotes and dashes. Each entry carries what
the importer reads: ``shorttitle`` (the short name), ``eprint`` with ``archivePrefix`` for arXiv, ``doi``, ``url``,
and biblatex's ``entrysubtype`` for a kind the entry type alone does not say (a survey, a benchmark, a framework).

Citation keys are stable (:mod:`wiki.references.citation_keys`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bibtexparser.entrypoint import write_string
from bibtexparser.library import Library
from bibtexparser.model import Entry, Field
from pylatexenc.latexencode import RULE_DICT, UnicodeToLatexConversionRule, UnicodeToLatexEncoder

from wiki.models import Source, SourceKind
from wiki.references.bibtex import _kind
from wiki.references.citation_keys import citation_keys

ENTRY_TYPE_BY_KIND: dict[str, str] = {
    SourceKind.PAPER: "article", SourceKind.PREPRINT: "misc", SourceKind.PROJECT: "software", SourceKind.BLOG: "online",
    SourceKind.NOTE: "report", SourceKind.SURVEY: "article", SourceKind.ENVIRONMENT: "software",
    SourceKind.FRAMEWORK: "software",
}
_ENCODER = UnicodeToLatexEncoder(
    non_ascii_only=False, replacement_latex_protection="braces-all", unknown_char_policy="keep",
    unknown_char_warning=False,
    conversion_rules=[UnicodeToLatexConversionRule(RULE_DICT, {ord('"'): '{"}', ord("^"): r"{\textasciicircum}"}),
                      "defaults"],
)


def latex_escaped(value: str) -> str:
    """``value`` as LaTeX that decodes back to it: specials escaped, accents as commands, other scripts kept."""
    return re.sub(r"-(?=-)", "-{}", _ENCODER.unicode_to_latex(value))


def _persons(authors: str) -> str:
    names = []
    for name in (part.strip() for part in authors.split(";")):
        if name == "et al.":
            names.append("others")
        elif name:
            # An organisation or a name holding " and " is one person: braced, it is not split.
            protected = " and " in f" {name.lower()} " or ("," not in name and len(name.split()) > 2)
            names.append(f"{{{latex_escaped(name)}}}" if protected else latex_escaped(name))
    return " and ".join(names)


def bibtex_entry(source: Source, key: str) -> Entry:
    """One source as an entry; values LaTeX-encoded (the writer braces them), except the verbatim ``url``, ``doi``
    and ``eprint``; the title braced once more, so that styles keep its capitals."""
    entry_type = ENTRY_TYPE_BY_KIND.get(source.kind, "misc")
    plain: dict[str, str] = {}
    fields: list[tuple[str, str]] = [("title", f"{{{latex_escaped(source.title)}}}")]
    if source.short_name and source.short_name != source.title:
        fields.append(("shorttitle", latex_escaped(source.short_name)))
    if source.authors:
        fields.append(("author", _persons(source.authors)))
    if source.year:
        fields.append(("year", str(source.year)))
    if source.venue and not (source.arxiv_id and source.venue.lower() == "arxiv"):
        name = "journal" if entry_type == "article" else "institution" if entry_type == "report" else "howpublished"
        fields.append((name, latex_escaped(source.venue)))
        if name == "journal":
            plain["journal"] = source.venue
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
    if _kind(entry_type, plain, source.arxiv_id, source.url) != source.kind:
        fields.append(("entrysubtype", source.kind))
    return Entry(entry_type, key, [Field(name, value) for name, value in fields])


def dump_bibtex(sources: Iterable[Source]) -> str:
    """The sources as one BibTeX file, in the order given."""
    sources = list(sources)
    keys = citation_keys(sources)
    library = Library([bibtex_entry(source, keys[source.pk]) for source in sources])
    # A first line even when no work matched: an empty body would be no file at all to some clients.
    header = f"% {len(sources)} {'work' if len(sources) == 1 else 'works'}, UTF-8\n"
    return header + write_string(library)
