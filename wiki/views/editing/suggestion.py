"""The classifier's suggestion shown on the classification form, with its cue words highlighted."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.utils.safestring import SafeString

from classifier import Span, Suggestion
from classifier.taxonomy import Fact
from wiki.models import Component, Source
from wiki.suggestion_evidence import strongest
from wiki.suggestions import suggestion_for


@dataclass(frozen=True)
class SuggestionCard:
    suggestion: Suggestion
    highlighted: SafeString
    values: dict[str, Any]
    # How many of the texts read ``highlighted`` leaves out (it shows the first: ``wiki.suggestion_texts.SHOWN_TEXTS``).
    not_shown: int = 0

    @property
    def strongest(self) -> list[Span]:
        return strongest(self.suggestion)

    @property
    def values_json(self) -> str:
        return json.dumps(self.values)


def suggestion_card(source: Source, component: Component | None = None) -> SuggestionCard | None:
    """The work's one suggestion (from its abstract and the claims about it, as everywhere), or ``None`` with nothing to
    read."""
    view = suggestion_for(source, component)
    if not view.has_suggestion:
        return None
    suggestion = view.suggestion
    values: dict[str, Any] = {
        "mechanism": suggestion.mechanism.value,
        "verdict": suggestion.verdict.value,
        "algorithm": suggestion.algorithm or "",
        "updated": suggestion.updated or "",
        "narrow": suggestion.narrow,
    }
    for fact in Fact:
        values[fact.value] = suggestion.fact(fact).value.as_bool
    return SuggestionCard(suggestion=suggestion, highlighted=view.highlighted, values=values, not_shown=view.not_shown)
