"""Badges, the rubric checklist, the mechanism × verdict chart and claim text diffs."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode
from django.utils.safestring import SafeString

from classifier.taxonomy import FACT_LABELS, Fact, Mechanism, Verdict
from wiki.text.claim_matching import char_diff as claim_char_diff

register = template.Library()


def _label(enum: type[Mechanism] | type[Verdict], value: str) -> str:
    try:
        return enum(value).label
    except ValueError:
        return value


@register.simple_tag
def verdict_badge(verdict: str) -> SafeString:
    return format_html('<span class="badge verdict verdict-{}">{}</span>', verdict, _label(Verdict, verdict))


@register.simple_tag
def mechanism_badge(mechanism: str) -> SafeString:
    return format_html('<span class="badge mech mech-{}">{}</span>', mechanism, _label(Mechanism, mechanism))


@register.filter
def verdict_label(verdict: str) -> str:
    return _label(Verdict, verdict)


@register.filter
def mechanism_label(mechanism: str) -> str:
    return _label(Mechanism, mechanism)


@dataclass(frozen=True)
class FactRow:
    key: str
    label: str
    value: str  # "yes", "no" or "unknown"

    @property
    def holds(self) -> bool:
        return self.value == "yes"


@register.filter
def rubric_facts(classification: Any) -> list[FactRow]:
    """The four rubric facts of a classification, in the rubric's order, with their labels; a fact stored as
    ``None`` is unknown, not "no"."""
    rows = []
    for fact in Fact:
        held = getattr(classification, fact.value)
        rows.append(FactRow(key=fact.value, label=FACT_LABELS[fact], value="unknown" if held is None else "yes" if held else "no"))
    return rows


@dataclass(frozen=True)
class Segment:
    verdict: str
    label: str
    count: int
    percent: str
    url: str


@dataclass(frozen=True)
class ChartRow:
    mechanism: str
    label: str
    total: int
    url: str
    cells: list[Segment]

    @property
    def segments(self) -> list[Segment]:
        return [cell for cell in self.cells if cell.count]


@register.inclusion_tag("includes/mechanism_chart.html")
def mechanism_chart(counts: Iterable[Mapping[str, Any]]) -> dict[str, object]:
    """Rows of a stacked bar per mechanism; each segment links to the source list filtered to it.

    Bars are scaled to the largest mechanism so that lengths compare across rows.
    """
    table: dict[tuple[str, str], int] = {(row["mechanism"], row["verdict"]): row["n"] for row in counts}
    totals = {m.value: sum(n for (mech, _), n in table.items() if mech == m.value) for m in Mechanism}
    widest = max(totals.values(), default=0) or 1
    base = reverse("wiki:source-list")
    rows = [
        ChartRow(
            mechanism=m.value,
            label=m.label,
            total=totals[m.value],
            url=f"{base}?{urlencode({'mechanism': m.value})}",
            cells=[
                Segment(
                    verdict=v.value,
                    label=v.label,
                    count=table.get((m.value, v.value), 0),
                    percent=f"{100 * table.get((m.value, v.value), 0) / widest:.2f}",
                    url=f"{base}?{urlencode({'mechanism': m.value, 'verdict': v.value})}",
                )
                for v in Verdict
            ],
        )
        for m in Mechanism
        if totals[m.value]
    ]
    return {"rows": rows, "verdicts": list(Verdict), "total": sum(totals.values())}


@register.filter
def http_url(url: str) -> str:
    """``url`` when it is an http(s) URL, else empty: stored URLs are not trusted to be safe links."""
    return url if url.lower().startswith(("http://", "https://")) else ""


def _subject(source_slug: str, component: Any) -> str:
    return f"{source_slug}:{component.slug}" if component is not None else source_slug


@register.simple_tag
def contrast_url(contrast: Any) -> str:
    """The contrast view of both sides of ``contrast`` (``work`` or ``work:component``)."""
    return reverse(
        "wiki:contrast",
        kwargs={
            "left": _subject(contrast.left.slug, contrast.left_component),
            "right": _subject(contrast.right.slug, contrast.right_component),
        },
    )


@register.simple_tag
def char_diff(old: str, new: str) -> SafeString:
    """The new text with removed characters in ``<del>`` and added ones in ``<ins>``, every part escaped."""
    tags = {"equal": "{}", "delete": "<del>{}</del>", "insert": "<ins>{}</ins>"}
    return format_html_join("", "{}", ((format_html(tags[op], text),) for op, text in claim_char_diff(old, new)))


@register.inclusion_tag("wiki/graph/legend.html")
def graph_legend() -> dict[str, object]:
    """The key to every graph: colours by mechanism, shapes by verdict, the other kinds of node and edge."""
    from wiki.graph.layout import VERDICT_SHAPES

    return {"mechanisms": list(Mechanism), "verdicts": [(v, VERDICT_SHAPES[v.value]) for v in Verdict]}


@register.filter(name="excerpt")
def excerpt_filter(text: str, limit: int) -> str:
    """``text`` cut at a sentence or word with an ellipsis (wiki.text.excerpt)."""
    from wiki.text.spaces import excerpt

    return excerpt(str(text), int(limit))


@register.simple_tag
def graph_frame(frame: Any, svg_id: str, title: str, first: bool) -> SafeString:
    """One frame of a drawing as inline SVG (wiki.graph.svg)."""
    from wiki.graph.svg import frame_svg

    return frame_svg(frame, svg_id=svg_id, title=str(title), first=bool(first))
