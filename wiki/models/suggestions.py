"""The classifier's suggestion for each work (or classified component), kept so that whatever shows it reads it.

Classifying a work takes milliseconds; classifying every work on every request took half a minute on a wiki of a few
thousand works, and a work cited by thousands of claims takes more than half a second alone. A row is derived data, like a search document: it records what the classifier read (the SHA-256 of
the subject and the text, ``wiki.suggestion_texts.suggestion_digest``) and with which weights, so that
``wiki.suggestions.suggestions_refresh`` classifies again only a work whose text or the installed weights changed.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from classifier import FactFinding, FactValue, Span, Suggestion
from classifier.taxonomy import Fact, Mechanism, Verdict
from wiki.models.labels import field_label
from wiki.taxonomy import MECHANISM_CHOICES, VERDICT_CHOICES, mechanism_label

# Below any confidence: a work with nothing to read has no suggestion, so it sorts past every one that has.
NO_CONFIDENCE = -1.0


def suggestion_to_json(suggestion: Suggestion) -> dict[str, Any]:
    """``suggestion`` as JSON that :func:`suggestion_from_json` reads back equal: every number at full precision (the
    classifier's own ``to_dict`` rounds them for readers)."""
    def spans(evidence: tuple[Span, ...]) -> list[list[Any]]:
        return [list(span) for span in evidence]

    return {
        "mechanism": suggestion.mechanism.value,
        "verdict": suggestion.verdict.value,
        "facts": [[f.fact.value, f.value.value, spans(f.evidence)] for f in suggestion.facts],
        "algorithm": suggestion.algorithm,
        "updated": suggestion.updated,
        "evidence": spans(suggestion.evidence),
        "confidence": suggestion.confidence,
        "rationale": suggestion.rationale,
        "narrow": suggestion.narrow,
    }


def suggestion_from_json(data: dict[str, Any]) -> Suggestion:
    def spans(rows: list[list[Any]]) -> tuple[Span, ...]:
        return tuple(Span(*row) for row in rows)

    return Suggestion(
        mechanism=Mechanism(data["mechanism"]),
        verdict=Verdict(data["verdict"]),
        facts=tuple(FactFinding(Fact(fact), FactValue(value), spans(evidence)) for fact, value, evidence in data["facts"]),
        algorithm=data["algorithm"],
        updated=data["updated"],
        evidence=spans(data["evidence"]),
        confidence=data["confidence"],
        rationale=data["rationale"],
        narrow=data["narrow"],
    )


class StoredSuggestionQuerySet(models.QuerySet["StoredSuggestion"]):
    def of_works(self, source_ids: list[int]) -> StoredSuggestionQuerySet:
        """The rows of these works themselves (not of their components)."""
        return self.filter(source_id__in=source_ids, component__isnull=True)

    def of_work(self, source_id: int) -> StoredSuggestionQuerySet:
        """The rows of this work and of its classified components."""
        return self.filter(source_id=source_id)

    def digests(self) -> models.QuerySet[Any, Any]:
        """Rows of ``source_id``, ``component_id``, ``digest`` and ``weights_version``: what a refresh compares."""
        return self.order_by().values_list("source_id", "component_id", "digest", "weights_version")


class StoredSuggestion(models.Model):
    """The suggestion the installed weights gave for the text a work (or one of its components) had."""

    source = models.ForeignKey("wiki.Source", on_delete=models.CASCADE, related_name="stored_suggestions",
                               verbose_name=field_label("source"))
    component = models.ForeignKey("wiki.Component", null=True, blank=True, on_delete=models.CASCADE, related_name="+",
                                  verbose_name=field_label("component"))
    digest = models.CharField(_("SHA-256 of the text read"), max_length=64)
    weights_version = models.PositiveIntegerField(_("Classifier weights version"))
    readable = models.BooleanField(_("Had text to read"))
    mechanism = models.CharField(field_label("mechanism"), max_length=40, choices=MECHANISM_CHOICES)
    verdict = models.CharField(field_label("verdict"), max_length=20, choices=VERDICT_CHOICES)
    # NO_CONFIDENCE when there was nothing to read, so that the triage queue sorts by this column alone.
    confidence = models.FloatField(_("Confidence"))
    suggestion = models.JSONField(_("Suggestion"))
    refreshed_at = models.DateTimeField(_("Refreshed at"), auto_now=True)

    objects = StoredSuggestionQuerySet.as_manager()

    class Meta:
        verbose_name = _("Stored suggestion")
        verbose_name_plural = _("Stored suggestions")
        constraints = [
            models.UniqueConstraint(fields=["source", "component"], nulls_distinct=False,
                                    name="stored_suggestion_one_per_work_or_component"),
        ]
        indexes = [models.Index(fields=["confidence", "source"], name="suggestion_by_confidence")]

    def __str__(self) -> str:
        """The work (or component) and the mechanism suggested, in the reader's language."""
        subject = self.source.short_name if self.component_id is None else f"{self.source.short_name} {self.component.name}"  # type: ignore[union-attr]
        return gettext("Suggestion for %(subject)s: %(mechanism)s") % {"subject": subject,
                                                                       "mechanism": mechanism_label(self.mechanism)}

    def made_from(self, digest: str, weights_version: int) -> bool:
        """Whether this suggestion was made from the text whose ``suggestion_digest`` is ``digest``, by these weights."""
        return (self.digest, self.weights_version) == (digest, weights_version)

    def as_suggestion(self) -> Suggestion:
        return suggestion_from_json(self.suggestion)
