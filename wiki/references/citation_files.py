"""A citation as a Cite page gives it in a reference manager's format (a work's page: BibTeX, CSL-JSON and RIS; a wiki
page's: BibTeX and CSL-JSON): every format in one block of one shape (``templates/includes/citation_file.html``), a
heading, the text to copy and the link that downloads it, so that no format's block can differ from another's."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy as _

from wiki.references.formats import ReferenceFormat


@dataclass(frozen=True)
class _Block:
    format: ReferenceFormat
    anchor: str
    download_label: str | Promise


# By the value of ``?format=`` that downloads the file: its format, the block's anchor (its heading's id is
# ``style-<anchor>``, its text's ``cite-<anchor>``, both reserved in wiki.markdown.sanitize.LAYOUT_IDS) and the words
# of its download link.
BLOCKS = {
    "bib": _Block(ReferenceFormat.BIBTEX, "bibtex", _("Download as .bib")),
    "csl": _Block(ReferenceFormat.CSL_JSON, "csl", _("Download as CSL-JSON")),
    "ris": _Block(ReferenceFormat.RIS, "ris", _("Download as .ris")),
}


@dataclass(frozen=True)
class CitationFile:
    anchor: str
    label: str
    text: str
    href: str
    download_label: str | Promise


def citation_files(
    texts: Mapping[str, str], *, url: str = "", query: Mapping[str, str | int] | None = None
) -> list[CitationFile]:
    """A block for each text, keyed by the ``?format=`` that downloads it, in the order given; the link goes to ``url``
    (the page itself when empty) with ``query`` before ``format``."""
    files = []
    for key, text in texts.items():
        block = BLOCKS[key]
        href = f"{url}?{urlencode({**(query or {}), 'format': key})}"
        files.append(CitationFile(block.anchor, block.format.label, text, href, block.download_label))
    return files
