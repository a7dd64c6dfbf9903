"""The classifier's suggestion for a work, from its abstract and the claims about it."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from classifier import Span, Suggestion, classify
from wiki.models import Citation, Claim, Classification, Source


def subject_name(source: Source, component_name: str | None) -> str:
    return f"{source.short_name} {component_name}" if component_name else source.short_name


def texts_about(source_ids: Iterable[int]) -> dict[int, list[str]]:
    """The texts of current claims citing or about each source, in page order (three queries).

    A claim that is only *about* a work (say, the other side of a contrast) counts when it names
    the work; otherwise its sentences describe something else.
    """
    ids = list(source_ids)
    names = {pk: name.casefold() for pk, name in Source.objects.filter(pk__in=ids).values_list("pk", "short_name")}
    texts: dict[int, dict[int, str]] = defaultdict(dict)
    citing = (
        Citation.objects.filter(source_id__in=ids, claim__is_orphaned=False)
        .order_by("claim__page_id", "claim__position")
        .values_list("source_id", "claim_id", "claim__text")
    )
    about = (
        Claim.about.through.objects.filter(source_id__in=ids, claim__is_orphaned=False)
        .order_by("claim__page_id", "claim__position")
        .values_list("source_id", "claim_id", "claim__text")
    )
    for source_id, claim_id, text in citing:
        texts[source_id][claim_id] = text
    for source_id, claim_id, text in about:
        if names.get(source_id, "") in text.casefold():
            texts[source_id][claim_id] = text
    return {source_id: list(by_claim.values()) for source_id, by_claim in texts.items()}


@dataclass(frozen=True)
class SuggestionView:
    """A suggestion beside the editor's classification, and where they differ."""

    subject: str
    text: str
    suggestion: Suggestion
    disagrees_on: tuple[str, ...]

    @property
    def disagrees(self) -> bool:
        return bool(self.disagrees_on)

    @property
    def highlighted(self) -> SafeString:
        return highlight(self.text, self.suggestion.evidence)


def suggest(*, source: Source, component_name: str | None, claim_texts: list[str]) -> tuple[str, Suggestion]:
    text = "\n".join(part for part in [source.abstract, *claim_texts] if part)
    return text, classify(text, subject=subject_name(source, component_name))


def compare(classification: Classification | None, *, source: Source, claim_texts: list[str]) -> SuggestionView:
    component_name = classification.component.name if classification and classification.component_id else None
    text, suggestion = suggest(source=source, component_name=component_name, claim_texts=claim_texts)
    differences: list[str] = []
    if classification is not None and text:
        if classification.mechanism != suggestion.mechanism.value:
            differences.append("mechanism")
        if classification.verdict != suggestion.verdict.value:
            differences.append("verdict")
    return SuggestionView(
        subject=subject_name(source, component_name), text=text, suggestion=suggestion, disagrees_on=tuple(differences)
    )


def highlight(text: str, spans: Sequence[Span]) -> SafeString:
    """``text`` escaped, with each evidence span in ``<mark>`` (a span overlapping an earlier one is left out)."""
    parts: list[str] = []
    cursor = 0
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if span.start < cursor or span.end > len(text) or span.start >= span.end:
            continue
        parts.append(escape(text[cursor : span.start]))
        css = "negated" if span.negated else ""
        parts.append(f'<mark class="{css}" title="{escape(span.decides)}">{escape(text[span.start : span.end])}</mark>')
        cursor = span.end
    parts.append(escape(text[cursor:]))
    return mark_safe("".join(parts))  # noqa: S308 - every part is escaped


def suggestions_for_source(source: Source, classifications: Sequence[Classification]) -> list[SuggestionView]:
    """One suggestion beside each classification of ``source`` (or one alone when it has none)."""
    texts = texts_about([source.pk]).get(source.pk, [])
    if not classifications:
        return [compare(None, source=source, claim_texts=texts)]
    return [compare(classification, source=source, claim_texts=texts) for classification in classifications]
