"""Suggests a mechanism and verdict for text about a work. Plain Python: no Django."""

from classifier.taxonomy import FACT_LABELS, Fact, Mechanism, Verdict, rubric_verdict

__all__ = ["FACT_LABELS", "Fact", "Mechanism", "Verdict", "rubric_verdict"]
