"""How often the classifier's suggestion agrees with what editors decided: over time, per mechanism, as a confusion matrix.

The suggestion is the one the installed weights give today for the text the classifier reads about each
work; a retrain shows up here as a change in agreement. It is read from the stored suggestions
(``wiki.suggestions.suggestions_refresh``), so a request classifies only the works whose text changed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.core.cache import cache
from django.utils import timezone

from classifier import Mechanism, Verdict
from classifier.model import current_weights
from wiki.caching import release
from wiki.models import Classification, StoredSuggestion
from wiki.reports.consistency import CACHE_SECONDS, last_change_marker
from wiki.suggestions import suggestions_refresh


@dataclass(frozen=True)
class Rate:
    label: str
    total: int
    agreed: int

    @property
    def share(self) -> float:
        return self.agreed / self.total if self.total else 0.0


@dataclass(frozen=True)
class AgreementReport:
    overall: Rate
    verdicts: Rate
    by_month: tuple[Rate, ...]
    by_mechanism: tuple[Rate, ...]
    mechanisms: tuple[Mechanism, ...]
    confusion: tuple[tuple[Mechanism, tuple[int, ...]], ...]


def agreement_report() -> AgreementReport:
    """The editors' decisions against today's suggestions (two queries whatever the number of works, after
    ``suggestions_refresh``): their mechanism against the suggested one, their verdict against the suggested one as
    strict or not; each month is the one a classification was saved in where the reader is."""
    suggestions_refresh()
    suggested: dict[tuple[int, int | None], tuple[Mechanism, Verdict]] = {
        (source_id, component_id): (Mechanism(mechanism), Verdict(verdict))
        for source_id, component_id, mechanism, verdict in StoredSuggestion.objects.filter(
            readable=True, weights_version=current_weights().version, source__deleted_at__isnull=True,
        ).values_list("source_id", "component_id", "mechanism", "verdict")
    }
    pairs: list[tuple[Classification, Mechanism, bool]] = []
    for c in Classification.objects.only("source_id", "component_id", "mechanism", "verdict", "updated_at").order_by("pk"):
        found = suggested.get((c.source_id, c.component_id))
        if found is not None:
            mechanism, verdict = found
            pairs.append((c, mechanism, verdict.is_strict == Verdict(c.verdict).is_strict))
    months: Counter[str] = Counter()
    month_agreed: Counter[str] = Counter()
    mech_total: Counter[str] = Counter()
    mech_agreed: Counter[str] = Counter()
    cells: Counter[tuple[str, str]] = Counter()
    for c, got, _ in pairs:
        month = timezone.localtime(c.updated_at).strftime("%Y-%m")
        months[month] += 1
        month_agreed[month] += got.value == c.mechanism
        mech_total[c.mechanism] += 1
        mech_agreed[c.mechanism] += got.value == c.mechanism
        cells[(c.mechanism, got.value)] += 1
    agreed = sum(got.value == c.mechanism for c, got, _ in pairs)
    return AgreementReport(
        overall=Rate("mechanism", len(pairs), agreed),
        verdicts=Rate("strict or not", len(pairs), sum(ok for _, _, ok in pairs)),
        by_month=tuple(Rate(m, months[m], month_agreed[m]) for m in sorted(months)),
        by_mechanism=tuple(Rate(m.value, mech_total[m.value], mech_agreed[m.value]) for m in Mechanism),
        mechanisms=tuple(Mechanism),
        confusion=tuple((gold, tuple(cells[(gold.value, got.value)] for got in Mechanism)) for gold in Mechanism),
    )


def agreement_report_cached() -> AgreementReport:
    """``agreement_report()``, computed again only when what it reads changed: the classifications, the stored
    suggestions or the weights (the consistency report's marker, one query), or after ``CACHE_SECONDS``; kept apart
    per time zone, which its months are in. At 10,000 works reading every classification and suggestion takes about
    half a second."""
    suggestions_refresh()
    key = f"wiki:agreement-report:{release.RELEASE}:{timezone.get_current_timezone_name()}:{last_change_marker()}"
    report: AgreementReport | None = cache.get(key)
    if report is None:
        report = agreement_report()
        cache.set(key, report, CACHE_SECONDS)
    return report
