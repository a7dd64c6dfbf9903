"""Works side by side: one column per work (or per component), one row per property.

Three queries whatever the number of works asked for: the sources, their components and their
classifications (with the evidence claim joined).
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.urls import reverse
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from classifier.taxonomy import Fact
from wiki.graph.build import SubjectRef
from wiki.models import Classification, Component, Source, SourceKind
from wiki.references.locators import is_valid_locator, locator_key, locators_in
from wiki.taxonomy import fact_label, mechanism_label, verdict_label
from wiki.text.spaces import excerpt

FACT_TEXT = {"yes": _("yes"), "no": _("no"), "unknown": _("unknown")}
# The group of the rows that describe each work in its own words, never marked as differing.
DESCRIBES = "describes"

_CLASSIFICATION_FIELDS = (
    "source__slug", "component__slug", "component__name", "mechanism", "algorithm", "updated", "interactive_env",
    "multi_step", "verifiable_reward", "rl_update", "narrow", "verdict", "evidence_locator", "evidence_claim_id",
    "evidence_claim__text", "evidence_claim__anchor", "evidence_claim__page__slug", "evidence_claim__page__deleted_at",
    "rationale",
)


def _as_readers_see(row: dict[str, Any]) -> dict[str, Any]:
    """A classification's row without its evidence claim while the claim's page is deleted: a deleted page's claims
    leave every read with it."""
    if row.pop("evidence_claim__page__deleted_at") is not None:
        row.update(evidence_claim_id=None, evidence_claim__text="", evidence_claim__anchor="", evidence_claim__page__slug="")
    return row


@dataclass
class Column:
    ref: SubjectRef
    name: str
    url: str
    year: int | None
    kind: str
    classification: dict[str, Any] | None
    # What the work is, as its page says: title, venue and authors ("; "-separated, as stored).
    details: dict[str, str] = field(default_factory=dict)

    @property
    def node(self) -> str:
        return self.ref.node

    @property
    def evidence_url(self) -> str:
        c = self.classification
        if not c or not c["evidence_claim_id"]:
            return ""
        return reverse("wiki:page-detail", kwargs={"slug": c["evidence_claim__page__slug"]}) + "#" + (
            c["evidence_claim__anchor"] or f"claim-{c['evidence_claim_id']}"
        )


@dataclass(frozen=True)
class Cell:
    text: str
    value: object
    url: str = ""
    fact: str = ""  # a rubric fact's "yes", "no" or "unknown"; empty for other rows
    full: str = ""

    @property
    def cut(self) -> bool:
        return bool(self.full) and self.full != self.text


@dataclass
class Row:
    key: str
    label: str
    cells: list[Cell]
    group: str = ""

    @property
    def differs(self) -> bool:
        # What each work's own words are (a title, a rationale) always differ: marking them would say nothing.
        return self.group != DESCRIBES and len({c.value for c in self.cells}) > 1


@dataclass
class Comparison:
    columns: list[Column] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    # only the rows where the works differ (the compare view's ?differs=1), in the table, the CSV and the JSON
    differing_only: bool = False

    @property
    def rows(self) -> list[Row]:
        rows = comparison_rows(self.columns)
        return [row for row in rows if row.differs] if self.differing_only else rows

    @property
    def differing(self) -> list[str]:
        return [r.key for r in self.rows if r.differs]


def _fact_cell(c: dict[str, Any] | None, key: str) -> Cell:
    """Yes, no, or unknown when the classification says neither (a fact stored as NULL)."""
    if c is None:
        return Cell("—", None)
    value = c[key]
    fact = "unknown" if value is None else "yes" if value else "no"
    return Cell(str(FACT_TEXT[fact]), value, fact=fact)


EVIDENCE_CHARS = 140


def _says_locator(text: str, locator: str) -> bool:
    """Whether ``text`` gives ``locator`` itself, as a claim's citation does (``（来源：Shepherd…，§4.3）``): however each
    is typed (``pp. 3–4`` gives ``pp.3-4``: :func:`locator_key`), alone or among others (``pp.3-4, 7`` gives ``p.7``),
    and not as part of a longer one (``p.1`` is not in ``p.12``, ``§4.3`` not in ``§4.3.1``)."""
    if not is_valid_locator(locator):
        # one typed before locators were checked: found as written, width and spacing aside
        def folded(value: str) -> str:
            return "".join(unicodedata.normalize("NFKC", value).split())

        return re.search(rf"(?<![\w.]){re.escape(folded(locator))}(?!\w)", folded(text)) is not None
    wanted = locator_key(locator).split(",")
    for given in locators_in(text):
        parts = locator_key(given).split(",")
        if any(parts[i : i + len(wanted)] == wanted for i in range(len(parts) - len(wanted) + 1)):
            return True
    return False


def _with_locator(text: str, locator: str) -> str:
    return text if not locator or _says_locator(text, locator) else f"{text} ({locator})"


def _evidence_cell(c: dict[str, Any] | None, col: Column) -> Cell:
    if not c or not c["evidence_claim_id"]:
        return Cell("—", None)
    locator, text = c["evidence_locator"], c["evidence_claim__text"]
    # the locator is written once: after the claim, unless its citation says it already
    return Cell(_with_locator(excerpt(text, EVIDENCE_CHARS), locator), c["evidence_claim_id"], url=col.evidence_url,
                full=_with_locator(text, locator))


def _rationale_cell(c: dict[str, Any] | None, col: Column) -> Cell:
    if not c or not c["rationale"]:
        return Cell("—", None)
    return Cell(excerpt(c["rationale"], EVIDENCE_CHARS), c["rationale"], full=c["rationale"])


# Authors shown before "et al."
AUTHORS_SHOWN = 3


def _authors_cell(c: dict[str, Any] | None, col: Column) -> Cell:
    names = [name.strip() for name in col.details.get("authors", "").split(";") if name.strip()]
    if not names:
        return Cell("—", None)
    separator = pgettext("author separator", "; ")  # names may hold commas: "Sutton, Richard S."
    shown = separator.join(names[:AUTHORS_SHOWN])
    if len(names) > AUTHORS_SHOWN:
        shown = gettext("%(authors)s et al.") % {"authors": shown}
    return Cell(shown, tuple(names), full=separator.join(names))


def comparison_rows(columns: Sequence[Column]) -> list[Row]:
    def row(key: str, label: str, cell: Any, group: str = "") -> Row:
        return Row(key, label, [cell(col.classification, col) for col in columns], group)

    def text(field_name: str) -> Any:
        # a field left empty is compared as absent: both read "—", as an unclassified work's does
        return lambda c, col: Cell(c[field_name] or "—", c[field_name] or None) if c else Cell("—", None)

    rows = [
        row("mechanism", gettext("Mechanism"), lambda c, col: Cell(mechanism_label(c["mechanism"]), c["mechanism"]) if c else Cell("—", None)),
        row("algorithm", gettext("Algorithm"), text("algorithm")),
        row("updated", gettext("What is updated"), text("updated")),
    ]
    rows += [row(f.value, fact_label(f), lambda c, col, k=f.value: _fact_cell(c, k), "rubric") for f in Fact]
    rows += [
        row("narrow", gettext("Narrow (not the acting agent's own policy, or a narrow action space)"), lambda c, col: _fact_cell(c, "narrow")),
        row("verdict", gettext("Verdict"), lambda c, col: Cell(verdict_label(c["verdict"]), c["verdict"]) if c else Cell(gettext("unclassified"), None)),
        row("rationale", gettext("Rationale"), _rationale_cell, DESCRIBES),
        row("year", gettext("Year"), lambda c, col: Cell(str(col.year or "—"), col.year)),
        row("kind", gettext("Kind"), lambda c, col: Cell(str(SourceKind(col.kind).label), col.kind)),
        row("venue", gettext("Venue"), lambda c, col: Cell(col.details.get("venue") or "—", col.details.get("venue") or None)),
        row("authors", gettext("Authors"), _authors_cell, DESCRIBES),
        row("title", gettext("Title"), lambda c, col: Cell(col.details.get("title") or "—", col.details.get("title") or None),
            DESCRIBES),
        row("evidence", gettext("Evidence"), _evidence_cell),
    ]
    return rows


def comparison_for(refs: Sequence[SubjectRef]) -> Comparison:
    """Columns for ``refs`` in the order asked; a work classified only per component becomes one column per component."""
    slugs = list(dict.fromkeys(r.source for r in refs))
    sources = {s["slug"]: s for s in Source.objects.filter(slug__in=slugs).values(
        "slug", "short_name", "year", "kind", "title", "venue", "authors")}
    components = {(s, c): n for s, c, n in Component.objects.filter(source__slug__in=slugs).values_list("source__slug", "slug", "name")}
    classifications: dict[tuple[str, str | None], dict[str, Any]] = {
        (row["source__slug"], row["component__slug"]): _as_readers_see(row)
        for row in Classification.objects.filter(source__slug__in=slugs).values(*_CLASSIFICATION_FIELDS)
    }
    result = Comparison()
    seen: set[SubjectRef] = set()
    for ref in refs:
        source = sources.get(ref.source)
        if source is None or (ref.component and (ref.source, ref.component) not in components):
            result.unknown.append(str(ref))
            continue
        expanded = [ref]
        if ref.component is None and (ref.source, None) not in classifications:
            parts = sorted((c for s, c in components if s == ref.source), key=lambda c: components[(ref.source, c)])
            expanded = [SubjectRef(ref.source, c) for c in parts] or [ref]
        for sub in expanded:
            if sub in seen:
                continue
            seen.add(sub)
            name = source["short_name"] + (f" {components[(sub.source, sub.component)]}" if sub.component else "")
            url = reverse("wiki:source-detail", kwargs={"slug": sub.source}) + (f"#component-{sub.component}" if sub.component else "")
            details = {key: source[key] for key in ("title", "venue", "authors")}
            result.columns.append(Column(sub, name, url, source["year"], source["kind"],
                                         classifications.get((sub.source, sub.component)), details))
    return result


def comparison_csv(comparison: Comparison, *, absolute: Callable[[str], str]) -> str:
    """The table as CSV, with a byte-order mark so that spreadsheet programs read the Chinese text as UTF-8; each
    work's address whole (``absolute`` makes it so), to open from the spreadsheet."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out)
    writer.writerow([gettext("Property"), *(_cell(c.name) for c in comparison.columns)])
    writer.writerow([gettext("Work"), *(str(c.ref) for c in comparison.columns)])
    writer.writerow([gettext("URL"), *(_cell(absolute(c.url)) for c in comparison.columns)])
    for row in comparison.rows:
        writer.writerow([row.label, *(_cell(cell.full or cell.text) for cell in row.cells)])  # evidence whole, not cut
    return out.getvalue()


def comparison_data(comparison: Comparison) -> dict[str, Any]:
    """The table as JSON data: each row by its key (the same in every language) with its label in the reader's, and
    each cell's text, whole, and the value compared (a rubric fact true, false or null)."""
    def plain(value: object) -> object:
        return list(value) if isinstance(value, tuple) else value

    return {
        "works": [{"work": str(c.ref), "name": c.name, "url": c.url} for c in comparison.columns],
        "rows": [
            {"key": row.key, "label": row.label, "differs": row.differs,
             "cells": [{"text": cell.full or cell.text, "value": plain(cell.value)} for cell in row.cells]}
            for row in comparison.rows
        ],
    }


def _cell(text: str) -> str:
    """Editors' text that a spreadsheet would run as a formula (``=HYPERLINK(…)``) is kept as text."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


# How many works a picker offers to tick at a time.
PICK_LIMIT = 50


class PickOffer(NamedTuple):
    chosen: list[tuple[str, str]]  # (ref, name) of the works compared, ticked
    choices: list[tuple[str, str]]  # others to tick
    more: bool  # more works match than are offered: a search finds them


def pick_offer(comparison: Comparison, query: str | None, *, limit: int = PICK_LIMIT) -> PickOffer:
    """What a picker shows as (ref, name) pairs: the works compared, ticked, and those whose name or title contains
    ``query`` (every work without one, by name, up to ``limit``) to tick besides; none besides when ``query`` is None
    (a search refused)."""
    chosen = [(str(column.ref), column.name) for column in comparison.columns]
    taken = {ref for ref, _ in chosen}
    found = pick_choices(query, limit=limit + 1) if query is not None else []
    return PickOffer(chosen, [(slug, name) for slug, name in found[:limit] if slug not in taken], len(found) > limit)


def pick_choices(query: str, *, limit: int) -> list[tuple[str, str]]:
    """Works to offer in the picker: those whose name or title contains ``query``, by name (one query)."""
    sources = Source.objects.all()
    if query:
        sources = sources.filter(short_name__icontains=query) | sources.filter(title__icontains=query)
    # as the sources list orders them: qwen3-runtime among the Qs, 通义 among the Ts
    return list(sources.in_name_order().values_list("slug", "short_name")[:limit])
