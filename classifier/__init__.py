"""Suggests a mechanism and verdict for text about a work. Plain Python: no Django."""

from classifier.engine import classify
from classifier.result import FactFinding, FactValue, Span, Suggestion
from classifier.taxonomy import FACT_LABELS, Fact, Mechanism, Verdict, rubric_verdict

__all__ = [
    "FACT_LABELS",
    "Fact",
    "FactFinding",
    "FactValue",
    "Mechanism",
    "Span",
    "Suggestion",
    "Verdict",
    "classify",
    "rubric_verdict",
]
