"""A BibTeX entry's fields that the wiki keeps among a work's other fields (wiki.references.extra_fields).

Every field the reader does not take into the work's own fields is kept, decoded as the work's fields are, except a
reference manager's record of its own copy (``file``, ``timestamp``…), which the report names as left out. Some
fields the reader does read are kept too when what they said is not kept otherwise: an ``editor`` beside the
authors, a non-arXiv ``eprint``, a ``date`` that gives a day, ``howpublished`` that was neither the venue nor an
address, biblatex's ``titleaddon``, a report's ``type``, an ``entrysubtype`` that is no kind of the wiki's.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext

from wiki.models import SourceKind
from wiki.references.extra_fields import NAME, NAME_FIELDS, VERBATIM_FIELDS, fitting, is_local
from wiki.references.latex import latex_to_text
from wiki.references.names import from_bibtex
from wiki.text.spaces import collapse_spaces

_URL = re.compile(r"https?://", re.IGNORECASE)
_ESCAPED = re.compile(r"\\([%&#_~$])")
_BRACE = re.compile(r"(?<!\\)[{}]")
# A date saying no more than the year and the month, which the work keeps as such.
_YEAR_MONTH = re.compile(r"\d{4}(?:-\d{1,2})?")
# The reader's own fields whose value is kept here when the work's fields did not take it (see the module's text).
_READ_AND_KEPT = ("titleaddon", "howpublished", "editor", "eprint", "archiveprefix", "eprinttype", "date", "urldate",
                  "entrysubtype", "type")


def _decoded(name: str, value: str) -> str:
    if name in NAME_FIELDS:
        return from_bibtex(value)
    if name in VERBATIM_FIELDS:
        return collapse_spaces(_ESCAPED.sub(r"\1", _BRACE.sub("", value)))
    return latex_to_text(value)


def extra_fields(entry_type: str, raw: dict[str, str], text: dict[str, str], unread: dict[str, str], *,
                 arxiv: str, venue: str, authors_from_editor: bool, warnings: list[str]) -> dict[str, str]:
    """The entry's other fields, decoded: ``unread`` (the fields the reader does not read, macros expanded), and of
    ``raw``/``text`` (the fields it read, as written and decoded) those whose value the work's fields did not take.
    What is left out (a path on one computer, a value too long) is said in ``warnings``."""
    found = dict(unread)
    taken = {
        "howpublished": bool(_URL.search(raw.get("howpublished", ""))) or text.get("howpublished", "").strip() == venue,
        "editor": authors_from_editor,
        "eprint": bool(arxiv), "archiveprefix": bool(arxiv), "eprinttype": bool(arxiv),
        "date": bool(_YEAR_MONTH.fullmatch(text.get("date", "").strip())),
        "entrysubtype": text.get("entrysubtype", "").strip().lower() in SourceKind.values,
        "type": entry_type == "thesis",
    }
    found.update({name: raw[name] for name in _READ_AND_KEPT if raw.get(name, "").strip() and not taken.get(name)})
    kept: dict[str, str] = {}
    for name, value in found.items():
        if not NAME.fullmatch(name):
            continue  # a name no BibTeX style reads either (bibtexparser takes what a field name may not be)
        decoded = _decoded(name, value)
        if is_local(name, decoded):
            warnings.append(gettext("%(field)s “%(value)s” is left out: a path on one computer, not the work's")
                            % {"field": name, "value": decoded[:80]})
        elif decoded:
            kept[name] = decoded
    return fitting(kept, warnings)
