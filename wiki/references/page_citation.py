"""How to cite one revision of a wiki page ("Cite this page"): its permanent link, the day it was read, and the
citation in BibTeX, CSL-JSON, an APA-like style and a GB/T 7714-like one (the national standard Chinese readers cite
by).

The page's title is the only text that comes from an editor, and each format escapes it as it must: LaTeX's specials
in BibTeX (read back the same by the wiki's own importer), CSL's rich-text markup in CSL-JSON, nothing in the plain
styles (the page that shows them escapes them as HTML). The permanent link is percent-encoded, as an address sent on
the web is, in BibTeX (``url`` is a verbatim field) and CSL-JSON, which programs read; the plain styles, which people
read and paste, give it as they read it (an IRI: ``/wiki/奖励塑形/``, not ``/wiki/%E5%A5%96…/``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.utils.encoding import uri_to_iri

from wiki.models.rules import BIBTEX_KEY
from wiki.references.bibtex_export import latex_escaped
from wiki.references.bibtex_macros import MONTHS
from wiki.references.csl import rich_text_escaped

WIKI_NAME = "Agentic RL Wiki"
AUTHOR = f"{WIKI_NAME} contributors"
# As the Chinese Wikipedia cites itself (维基百科编者).
AUTHOR_ZH = f"{WIKI_NAME} 编者"
_MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


@dataclass(frozen=True)
class StyledCitation:
    """A citation in a plain-text style, around the page's title (so that a page can mark the title's language)."""

    before: str
    title: str
    after: str

    def __str__(self) -> str:
        return f"{self.before}{self.title}{self.after}"


@dataclass(frozen=True)
class PageCitation:
    page_id: int
    slug: str
    title: str
    revision: int
    revised: date
    retrieved: date
    url: str
    language: str

    @property
    def author(self) -> str:
        return AUTHOR

    def author_for(self, language: str) -> str:
        """The author as a reader of ``language`` (a language code) names it: 编者 in Chinese, as GB/T 7714 does."""
        return AUTHOR_ZH if language.lower().startswith("zh") else AUTHOR

    @property
    def readable_url(self) -> str:
        """The permanent link as a reader reads it: a Chinese address in its characters, not percent-encoded."""
        return uri_to_iri(self.url)

    @property
    def publisher(self) -> str:
        return WIKI_NAME

    @property
    def key(self) -> str:
        """The citation key: the wiki's, the page's address and the revision (the page's id for an address BibTeX
        keys cannot hold)."""
        name = self.slug if re.fullmatch(BIBTEX_KEY, self.slug) else f"page-{self.page_id}"
        return f"agentic-rl-wiki:{name}:r{self.revision}"

    @property
    def bibtex(self) -> str:
        fields = [
            ("title", f"{{{{{latex_escaped(self.title)}}}}}"),
            ("author", f"{{{{{AUTHOR}}}}}"),
            ("howpublished", f"{{{WIKI_NAME}}}"),
            ("year", f"{{{self.revised.year}}}"),
            ("month", MONTHS[self.revised.month - 1]),
            ("url", f"{{{self.url}}}"),
            ("urldate", f"{{{self.retrieved.isoformat()}}}"),
            ("note", f"{{Revision {self.revision}}}"),
        ]
        width = max(len(name) for name, _ in fields)
        body = ",\n".join(f"  {name.ljust(width)} = {value}" for name, value in fields)
        return f"@misc{{{self.key},\n{body},\n}}\n"

    @property
    def csl_item(self) -> dict[str, Any]:
        return {
            "id": self.key,
            "type": "webpage",
            "title": rich_text_escaped(self.title),
            "container-title": WIKI_NAME,
            "author": [{"literal": AUTHOR}],
            "issued": {"date-parts": [[self.revised.year, self.revised.month, self.revised.day]]},
            "accessed": {"date-parts": [[self.retrieved.year, self.retrieved.month, self.retrieved.day]]},
            "version": str(self.revision),
            "URL": self.url,
            "language": self.language,
        }

    @property
    def csl_json(self) -> str:
        """The item as a CSL-JSON file (an array of one), each field on a line of its own."""
        fields = ",\n".join(
            f"    {json.dumps(name)}: {json.dumps(value, ensure_ascii=False)}" for name, value in self.csl_item.items()
        )
        return f"[\n  {{\n{fields}\n  }}\n]\n"

    @property
    def apa(self) -> StyledCitation:
        """``Agentic RL Wiki contributors. (2025, March 4). Title (revision 12). In Agentic RL Wiki. Retrieved March 5,
        2025, from https://…``"""
        return StyledCitation(
            before=f"{AUTHOR}. ({self.revised.year}, {_english(self.revised, year=False)}). ",
            title=self.title,
            after=f" (revision {self.revision}). In {WIKI_NAME}. Retrieved {_english(self.retrieved)}, from {self.readable_url}",
        )

    @property
    def gbt7714(self) -> StyledCitation:
        """``Agentic RL Wiki 编者. 标题[EB/OL]. (2025-03-04)[2025-03-05]. https://….``: an online resource, its date of
        revision and the day it was cited."""
        return StyledCitation(
            before=f"{AUTHOR_ZH}. ",
            title=self.title,
            after=f"[EB/OL]. ({self.revised.isoformat()})[{self.retrieved.isoformat()}]. {self.readable_url}.",
        )


def _english(day: date, *, year: bool = True) -> str:
    shown = f"{_MONTH_NAMES[day.month - 1]} {day.day}"
    return f"{shown}, {day.year}" if year else shown
