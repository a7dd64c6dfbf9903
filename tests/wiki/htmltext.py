"""Reading HTML responses in tests: visible text, tables, and elements by class."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser


class _TextParser(HTMLParser):
    def __init__(self, skip: frozenset[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.skip = skip
        self.depth = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.skip:
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self.skip and self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if not self.depth:
            self.parts.append(data)


def html_text(markup: str, *, skip: frozenset[str] = frozenset({"script", "style"})) -> str:
    """The text of ``markup`` with tags stripped, entities unescaped and whitespace collapsed."""
    parser = _TextParser(skip)
    parser.feed(markup)
    parser.close()
    return normalize_space("".join(parser.parts))


def normalize_space(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@dataclass
class Table:
    headers: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)


class _TableParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[Table] = []
        self.cell: list[str] | None = None
        self.in_head = False
        self.row: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append(Table())
        elif tag == "thead":
            self.in_head = True
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "thead":
            self.in_head = False
        elif tag in ("td", "th") and self.cell is not None:
            self.row.append(normalize_space("".join(self.cell)))
            self.cell = None
        elif tag == "tr" and self.tables:
            table = self.tables[-1]
            if self.in_head:
                table.headers = self.row
            else:
                table.rows.append(self.row)

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def html_tables(markup: str) -> list[Table]:
    parser = _TableParser()
    parser.feed(markup)
    parser.close()
    return parser.tables


def sections_with_class(markup: str, css_class: str) -> list[str]:
    """The markup of each ``<section>`` whose class list holds ``css_class`` (such sections do not nest)."""
    pattern = re.compile(r'<section class="[^"]*\b' + re.escape(css_class) + r'\b[^"]*"[^>]*>.*?</section>', re.DOTALL)
    return pattern.findall(markup)


_POST_FORM = re.compile(r'<form method="post"(?: action="(?P<action>[^"]*)")?[^>]*>(?P<body>.*?)</form>', re.S)
_HIDDEN = re.compile(r'<input type="hidden" name="(?P<name>[^"]+)" value="(?P<value>[^"]*)"')


def posted_form(markup: str, *, action: str) -> tuple[str, dict[str, str]]:
    """The address and hidden values of the first POST form in ``markup`` whose action contains ``action``, as a
    browser would send them."""
    for form in _POST_FORM.finditer(markup):
        if action in (form["action"] or ""):
            return unescape(form["action"]), {m["name"]: unescape(m["value"]) for m in _HIDDEN.finditer(form["body"])}
    raise AssertionError(f"no form posting to {action}")
