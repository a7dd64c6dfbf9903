"""The classifier's suggestion shown on the classification form, with its cue words highlighted."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from classifier import Suggestion, classify
from classifier.taxonomy import Fact
from wiki.models import Component, Source


@dataclass(frozen=True)
class SuggestionCard:
    suggestion: Suggestion
    highlighted: SafeString
    values: dict[str, Any]

    @property
    def values_json(self) -> str:
        return json.dumps(self.values)

    @property
    def fact_rows(self) -> list[tuple[str, str]]:
        return [(finding.fact.label, finding.value.value) for finding in self.suggestion.facts]


def highlight(text: str, spans: Sequence[Any]) -> SafeString:
    """``text`` escaped, with each evidence span in ``<mark>`` (overlapping spans are merged into the first)."""
    parts: list[str] = []
    cursor = 0
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if span.start < cursor or span.end > len(text) or span.start >= span.end:
            continue
        parts.append(escape(text[cursor : span.start]))
        css = "negated" if getattr(span, "negated", False) else ""
        parts.append(
            f'<mark class="{css}" title="{escape(span.decides)}">{escape(text[span.start : span.end])}</mark>'
        )
        cursor = span.end
    parts.append(escape(text[cursor:]))
    return mark_safe("".join(parts))  # noqa: S308 - built from escaped parts


def suggestion_text(source: Source) -> str:
    return "\n\n".join(part for part in (source.abstract, source.notes) if part.strip())


def suggestion_card(source: Source, component: Component | None = None) -> SuggestionCard | None:
    """The suggestion from the source's abstract and notes, or ``None`` when it has neither."""
    text = suggestion_text(source)
    if not text:
        return None
    subject = f"{source.short_name} {component.name}" if component else source.short_name
    suggestion = classify(text, subject=subject)
    values: dict[str, Any] = {
        "mechanism": suggestion.mechanism.value,
        "verdict": suggestion.verdict.value,
        "algorithm": suggestion.algorithm or "",
        "updated": suggestion.updated or "",
        "narrow": bool(getattr(suggestion, "narrow", False)),
    }
    for fact in Fact:
        values[fact.value] = suggestion.fact(fact).value.value == "true"
    return SuggestionCard(suggestion=suggestion, highlighted=highlight(text, suggestion.evidence), values=values)
