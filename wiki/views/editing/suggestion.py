"""The classifier's suggestion shown on the classification form, with its cue words highlighted."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.utils.safestring import SafeString

from classifier import Span, Suggestion
from classifier.taxonomy import Fact
from wiki.models import Component, Source
from wiki.suggestion_evidence import Marked
from wiki.suggestions import SuggestionView, suggestion_for


@dataclass(frozen=True)
class SuggestionCard:
    """The work's suggestion as the source page shows it (``view``), with the values "Accept suggestion" fills in."""

    view: SuggestionView
    values: dict[str, Any]

    @property
    def suggestion(self) -> Suggestion:
        return self.view.suggestion

    @property
    def highlighted(self) -> SafeString:
        return self.view.highlighted

    @property
    def not_shown(self) -> int:
        """How many of the texts read ``highlighted`` leaves out (it shows the first: ``wiki.suggestion_texts.SHOWN_TEXTS``)."""
        return self.view.not_shown

    @property
    def strongest(self) -> list[Span]:
        return self.view.strongest

    @property
    def marked(self) -> list[Marked]:
        return self.view.marked

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
    return SuggestionCard(view=view, values=values)
