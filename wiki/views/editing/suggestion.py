"""The classifier's suggestion shown on the classification form, with its cue words highlighted."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.utils.safestring import SafeString

from classifier import Suggestion
from classifier.taxonomy import Fact
from wiki.models import Component, Source
from wiki.suggestions import highlight, suggest, texts_about


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


def suggestion_card(source: Source, component: Component | None = None) -> SuggestionCard | None:
    """The suggestion from the source's abstract, notes and the claims about it, or ``None`` without any text."""
    notes = [source.notes] if source.notes.strip() else []
    claim_texts = notes + texts_about([source.pk]).get(source.pk, [])
    text, suggestion = suggest(source=source, component_name=component.name if component else None, claim_texts=claim_texts)
    if not text.strip():
        return None
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
