"""Where the wiki contradicts itself: findings an editor should look at."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from django.core.cache import cache
from django.db import connection
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from classifier import Mechanism
from wiki.caching import release
from wiki.models import ChangeEvent, Citation, CitationKind, Claim, Classification, Contrast, Source
from wiki.models.classifications import MECHANISM_CHOICES, VERDICT_CHOICES
from wiki.suggestions import suggestion_for, texts_about
from wiki.taxonomy import suggestion_rationale
from wiki.text.spaces import excerpt

# "RL" as a word or name part (prime-rl, RLinf, Multi-Harness RL), not inside other words.
RL_IN_NAME = re.compile(r"(?:^|[^A-Za-z])RL(?:[^a-z]|$)|(?:^|[^A-Za-z])RL[a-z]|-rl\b|\brl-", re.IGNORECASE)
RL_MECHANISMS = {Mechanism.POLICY_GRADIENT.value}
MECHANISM_LABELS = dict(MECHANISM_CHOICES)
VERDICT_LABELS = dict(VERDICT_CHOICES)
# A bound on staleness for writes the marker cannot see (a bulk UPDATE that leaves updated_at alone).
CACHE_SECONDS = 60
# A claim quoted in a finding is cut at a sentence or word to this many characters.
EXCERPT_CHARS = 80


# The report's sections, which are the kinds of finding.
FINDING_KINDS = (
    ("verdict_disagrees", _("Editor verdict disagrees with the suggestion from the work's own claims")),
    ("no_evidence", _("Classifications with no evidence claim")),
    ("rl_name_not_rl", _("Works named “…RL…” whose mechanism is not RL")),
    ("missing_locator", _("Claims citing a source without a locator")),
    ("one_sided_contrast", _("Contrasts whose evidence claim does not name both sides")),
)
# What a finding's key looks like: the objects it concerns, "classification-12", "contrast-5-claim-40".
FINDING_KEY_PATTERN = r"^[a-z]+(?:-[a-z0-9]+)*$"


@dataclass(frozen=True)
class Finding:
    """One finding; ``kind`` (its section) and ``key`` (the objects it concerns) say which, whenever it is computed."""

    kind: str
    key: str
    subject: str
    url: str
    detail: str

    @property
    def anchor(self) -> str:
        return f"finding-{self.kind}-{self.key}"


def classification_key(classification_id: int) -> str:
    return f"classification-{classification_id}"


def citation_key(claim_id: int, source_id: int) -> str:
    return f"claim-{claim_id}-source-{source_id}"


def contrast_key(contrast_id: int, claim_id: int) -> str:
    """The contrast with the claim given as its evidence: another claim is another finding."""
    return f"contrast-{contrast_id}-claim-{claim_id}"


@dataclass
class ConsistencyReport:
    verdict_disagrees: list[Finding] = field(default_factory=list)
    no_evidence: list[Finding] = field(default_factory=list)
    rl_name_not_rl: list[Finding] = field(default_factory=list)
    missing_locator: list[Finding] = field(default_factory=list)
    one_sided_contrast: list[Finding] = field(default_factory=list)

    SECTIONS = FINDING_KINDS

    def sections(self) -> list[tuple[str, str, list[Finding]]]:
        return [(key, str(title), getattr(self, key)) for key, title in self.SECTIONS]

    def find(self, kind: str, key: str) -> Finding | None:
        if kind not in dict(self.SECTIONS):
            return None
        return next((finding for finding in getattr(self, kind) if finding.key == key), None)

    @property
    def total(self) -> int:
        return sum(len(findings) for _, _, findings in self.sections())


def has_rl_in_name(*names: str) -> bool:
    return any(RL_IN_NAME.search(name) for name in names if name)


def _names(name: str) -> list[str]:
    """How a claim may name a work: its short name, or that name without a trailing word ("Multi-Harness RL Guide")."""
    words = name.split()
    return [name.lower()] + ([" ".join(words[:-1]).lower()] if len(words) >= 3 else [])


def names_side(text: str, source_name: str, component_name: str = "") -> bool:
    lowered = text.lower()
    names = _names(source_name) + (_names(component_name) if component_name else [])
    return any(name and name in lowered for name in names)


def consistency_report() -> ConsistencyReport:
    """Every finding, from five queries whatever the size of the wiki."""
    report = ConsistencyReport()
    classifications = list(Classification.objects.with_related().order_by("source__short_name", "component__name"))
    texts = texts_about({c.source_id for c in classifications})
    for classification in classifications:
        source = classification.source
        url = source.get_absolute_url()
        view = suggestion_for(source, classification=classification, claim_texts=texts.get(source.pk, []))
        if view.text and "verdict" in view.disagrees_on:
            report.verdict_disagrees.append(
                Finding(
                    "verdict_disagrees",
                    classification_key(classification.pk),
                    view.subject,
                    url,
                    gettext("editor: %(editor)s; suggested: %(suggested)s") % {
                        "editor": VERDICT_LABELS[classification.verdict], "suggested": VERDICT_LABELS[view.suggestion.verdict.value]}
                    + f" — {suggestion_rationale(view.suggestion)}",
                )
            )
        if classification.evidence_claim_id is None:
            report.no_evidence.append(Finding("no_evidence", classification_key(classification.pk), classification.subject_name, url, gettext("no claim is given as evidence")))
        if classification.mechanism not in RL_MECHANISMS and has_rl_in_name(source.short_name):
            report.rl_name_not_rl.append(
                Finding("rl_name_not_rl", classification_key(classification.pk), classification.subject_name, url,
                        gettext("the name says RL, the mechanism is %(mechanism)s") % {"mechanism": MECHANISM_LABELS[classification.mechanism]})
            )
    missing = (
        Citation.objects.filter(kind=CitationKind.CITED, locator="", claim__is_orphaned=False)
        .select_related("source", "claim__page")
        .only("source__short_name", "source__slug", "claim__text", "claim__anchor", "claim__page__slug")
        .order_by("claim__page__slug", "claim__position", "position")
    )
    for citation in missing:
        claim = citation.claim
        report.missing_locator.append(
            Finding(
                "missing_locator",
                citation_key(claim.pk, citation.source.pk),
                citation.source.short_name,
                f"{claim.page.get_absolute_url()}#{claim.anchor}",
                gettext("“%(claim)s” cites it without a page or section") % {"claim": excerpt(claim.text, EXCERPT_CHARS)},
            )
        )
    contrasts = (
        Contrast.objects.filter(claim__isnull=False)
        .select_related("left", "right", "left_component", "right_component", "claim__page")
        .only("axis", "left__short_name", "left__slug", "right__short_name", "right__slug", "left_component__name",
              "right_component__name", "claim__text", "claim__anchor", "claim__page__slug")
        .order_by("id")
    )
    for contrast in contrasts:
        evidence = contrast.claim
        assert evidence is not None
        sides = [(contrast.left.short_name, contrast.left_component.name if contrast.left_component else ""),
                 (contrast.right.short_name, contrast.right_component.name if contrast.right_component else "")]
        unnamed = [name for name, part in sides if not names_side(evidence.text, name, part)]
        if unnamed:
            report.one_sided_contrast.append(
                Finding(
                    "one_sided_contrast",
                    contrast_key(contrast.pk, evidence.pk),
                    f"{contrast.left.short_name} vs {contrast.right.short_name}",
                    f"{evidence.page.get_absolute_url()}#{evidence.anchor}",
                    gettext("the claim given as evidence never names %(names)s: “%(claim)s”")
                    % {"names": gettext(" or ").join(unnamed), "claim": excerpt(evidence.text, EXCERPT_CHARS)},
                )
            )
    return report


def _last_change_marker() -> str:
    """What the report reads changed when this does: the latest recorded change, the newest saves, the row counts.

    One query. Every editing service records a change; the timestamps and counts catch saves made
    without one (the admin, a shell, an import), deletions included.
    """
    parts = [f"(SELECT max(id) FROM {ChangeEvent._meta.db_table})"]
    for model in (Classification, Claim, Source):
        parts += [f"(SELECT max(updated_at) FROM {model._meta.db_table})", f"(SELECT count(*) FROM {model._meta.db_table})"]
    parts.append(f"(SELECT count(*) FROM {Citation._meta.db_table})")
    parts.append(f"(SELECT count(*) || ':' || coalesce(max(id), 0) || ':' || coalesce(sum(claim_id), 0) FROM {Contrast._meta.db_table})")
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(parts))
        row = cursor.fetchone()
    return hashlib.sha256("|".join(str(value) for value in row).encode()).hexdigest()


def consistency_report_cached() -> ConsistencyReport:
    """``consistency_report()``, computed again only when the wiki changed (or after ``CACHE_SECONDS``).

    Running the classifier over every classification is too slow for each anonymous request.
    """
    # The details are written in the reader's language.
    key = f"wiki:consistency-report:{release.RELEASE}:{get_language()}:{_last_change_marker()}"
    report: ConsistencyReport | None = cache.get(key)
    if report is None:
        report = consistency_report()
        cache.set(key, report, CACHE_SECONDS)
    return report
