"""Where the wiki contradicts itself: findings an editor should look at.

A finding keeps its message untranslated with its values (``Finding.detail`` words it in the reader's language), so
one computed report serves readers of every language; the suggestions it compares come from the stored ones.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from django.core.cache import cache
from django.db import connection
from django.db.models import F, OuterRef, Q, Subquery
from django.db.models.fields.json import KT
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from classifier import Mechanism
from classifier.model import current_weights
from wiki.caching import release
from wiki.models import (
    ChangeEvent,
    Citation,
    CitationKind,
    Claim,
    Classification,
    ClassificationChange,
    Contrast,
    Source,
    StoredSuggestion,
)
from wiki.models.classifications import MECHANISM_CHOICES, VERDICT_CHOICES
from wiki.rationales import rationale_for_reader
from wiki.suggestions import suggestions_refresh
from wiki.text.spaces import excerpt

# "RL" as a word or name part (prime-rl, RLinf, Multi-Harness RL), not inside other words.
RL_IN_NAME = re.compile(r"(?:^|[^A-Za-z])RL(?:[^a-z]|$)|(?:^|[^A-Za-z])RL[a-z]|-rl\b|\brl-", re.IGNORECASE)
RL_MECHANISMS = {Mechanism.POLICY_GRADIENT.value}
MECHANISM_LABELS = dict(MECHANISM_CHOICES)
VERDICT_LABELS = dict(VERDICT_CHOICES)
# A bound on staleness for writes the marker cannot see (a bulk UPDATE that leaves updated_at alone).
CACHE_SECONDS = 60
# The report last computed is kept this long, for readers to get while another request computes the next.
LATEST_SECONDS = 24 * 60 * 60
# One request computes the report at a time; a lock older than this was left by a request that died.
LOCK_SECONDS = 120
# A claim quoted in a finding is cut at a sentence or word to this many characters.
EXCERPT_CHARS = 80


# The report's sections, which are the kinds of finding.
FINDING_KINDS = (
    ("verdict_disagrees", _("Editor verdict disagrees with the suggestion from the work's own claims")),
    ("no_evidence", _("Classifications with no evidence claim")),
    ("rl_name_not_rl", _("Works named “…RL…” whose mechanism is not RL")),
    ("missing_locator", _("Claims citing a source without a locator")),
    ("one_sided_contrast", _("Contrasts whose evidence claim does not name both sides")),
    ("contrast_after_reclassification", _("Contrasts written before a side was reclassified")),
)
# What a finding's key looks like: the objects it concerns, "classification-12", "contrast-5-claim-40".
FINDING_KEY_PATTERN = r"^[a-z]+(?:-[a-z0-9]+)*$"


# How a finding's values are worded for the reader: by their label, or as a list of names.
_WORDING = {
    "verdict": lambda value: str(VERDICT_LABELS[value]),
    "mechanism": lambda value: str(MECHANISM_LABELS[value]),
    "names": lambda value: gettext(" or ").join(value),
    "all names": lambda value: gettext(" and ").join(value),
}


@dataclass(frozen=True)
class Finding:
    """One finding; ``kind`` (its section) and ``key`` (the objects it concerns) say which, whenever it is computed.

    ``message`` is the untranslated message and ``values`` its values as ``(name, wording, value)``, the wording a
    key of ``_WORDING`` or "" for a value shown as it is (content: a claim's words); ``reason`` is the classifier's
    one-line reason, shown after the message in the reader's language.
    """

    kind: str
    key: str
    subject: str
    url: str
    message: str
    values: tuple[tuple[str, str, str | tuple[str, ...]], ...] = ()
    reason: str = ""

    @property
    def anchor(self) -> str:
        return f"finding-{self.kind}-{self.key}"

    @property
    def detail(self) -> str:
        """What was found, in the reader's language."""
        values = {name: _WORDING[wording](value) if wording else value for name, wording, value in self.values}
        detail = gettext(self.message) % values if values else gettext(self.message)
        return f"{detail} — {rationale_for_reader(self.reason)}" if self.reason else detail


def classification_key(classification_id: int) -> str:
    return f"classification-{classification_id}"


def citation_key(claim_id: int, source_id: int) -> str:
    return f"claim-{claim_id}-source-{source_id}"


def contrast_key(contrast_id: int, claim_id: int) -> str:
    """The contrast with the claim given as its evidence: another claim is another finding."""
    return f"contrast-{contrast_id}-claim-{claim_id}"


def reclassified_contrast_key(contrast_id: int, change_id: int) -> str:
    """The contrast with the latest reclassification of a side since it was written: a later one is another finding."""
    return f"contrast-{contrast_id}-change-{change_id}"


@dataclass
class ConsistencyReport:
    verdict_disagrees: list[Finding] = field(default_factory=list)
    no_evidence: list[Finding] = field(default_factory=list)
    rl_name_not_rl: list[Finding] = field(default_factory=list)
    missing_locator: list[Finding] = field(default_factory=list)
    one_sided_contrast: list[Finding] = field(default_factory=list)
    contrast_after_reclassification: list[Finding] = field(default_factory=list)

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
    """Every finding, from six queries whatever the size of the wiki."""
    report = ConsistencyReport()
    suggestions_refresh()
    classifications = list(
        Classification.objects.select_related("source", "component")
        .only("mechanism", "verdict", "evidence_claim_id", "source__short_name", "source__slug", "component__name")
        .in_subject_order()
    )
    suggested: dict[tuple[int, int | None], tuple[str, str]] = {
        (source_id, component_id): (verdict, rationale)
        for source_id, component_id, verdict, rationale in StoredSuggestion.objects.filter(
            readable=True, weights_version=current_weights().version, source__deleted_at__isnull=True,
        ).values_list("source_id", "component_id", "verdict", "suggestion__rationale")
    }
    for classification in classifications:
        source = classification.source
        url = source.get_absolute_url()
        found = suggested.get((source.pk, classification.component_id))
        if found is not None and found[0] != classification.verdict:
            suggested_verdict, suggested_rationale = found
            report.verdict_disagrees.append(
                Finding(
                    "verdict_disagrees", classification_key(classification.pk), classification.subject_name, url,
                    gettext_noop("editor: %(editor)s; suggested: %(suggested)s"),
                    (("editor", "verdict", classification.verdict), ("suggested", "verdict", suggested_verdict)),
                    suggested_rationale,
                )
            )
        if classification.evidence_claim_id is None:
            report.no_evidence.append(Finding("no_evidence", classification_key(classification.pk), classification.subject_name, url,
                                              gettext_noop("no claim is given as evidence")))
        if classification.mechanism not in RL_MECHANISMS and has_rl_in_name(source.short_name):
            report.rl_name_not_rl.append(
                Finding("rl_name_not_rl", classification_key(classification.pk), classification.subject_name, url,
                        gettext_noop("the name says RL, the mechanism is %(mechanism)s"),
                        (("mechanism", "mechanism", classification.mechanism),))
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
                gettext_noop("“%(claim)s” cites it without a page or section"),
                (("claim", "", excerpt(claim.text, EXCERPT_CHARS)),),
            )
        )
    # As plain rows: a wiki has thousands of contrasts, and six model instances each cost more than the check.
    contrasts = (
        Contrast.objects.filter(claim__isnull=False)
        .order_by("id")
        .values_list("id", "left__short_name", "right__short_name", "left_component__name", "right_component__name",
                     "claim_id", "claim__text", "claim__anchor", "claim__page__slug")
    )
    for contrast_id, left, right, left_part, right_part, claim_id, text, anchor, page_slug in contrasts:
        unnamed = [name for name, part in ((left, left_part or ""), (right, right_part or "")) if not names_side(text, name, part)]
        if unnamed:
            report.one_sided_contrast.append(
                Finding(
                    "one_sided_contrast",
                    contrast_key(contrast_id, claim_id),
                    f"{left} vs {right}",
                    f"{reverse('wiki:page-detail', kwargs={'slug': page_slug})}#{anchor}",
                    gettext_noop("the claim given as evidence never names %(names)s: “%(claim)s”"),
                    (("names", "names", tuple(unnamed)), ("claim", "", excerpt(text, EXCERPT_CHARS))),
                )
            )
    _contrasts_after_reclassification(report)
    return report


def _reclassification_of(side: str) -> Subquery:
    """The latest change to the mechanism or verdict of the contrast's ``side`` (``left`` or ``right``) made after the
    contrast was last saved; a first classification is not a change of mind about the work."""
    changes = ClassificationChange.objects.annotate(
        component=Coalesce("classification__component_id", 0),
        mechanism_before=KT("before__mechanism"), mechanism_after=KT("after__mechanism"),
        verdict_before=KT("before__verdict"), verdict_after=KT("after__verdict"),
    ).filter(
        Q(mechanism_before__isnull=False) & ~Q(mechanism_before=F("mechanism_after"))
        | Q(verdict_before__isnull=False) & ~Q(verdict_before=F("verdict_after")),
        classification__source_id=OuterRef(f"{side}_id"),
        component=Coalesce(OuterRef(f"{side}_component_id"), 0),
        created_at__gt=OuterRef("updated_at"),
    )
    return Subquery(changes.order_by("-id").values("id")[:1])


def _contrasts_after_reclassification(report: ConsistencyReport) -> None:
    """A contrast says what its works differ on as they were classified when it was written; once one of them is
    classified otherwise, the axis may no longer hold ("policy update vs harness" after the harness was found to train
    its policy). One query."""
    contrasts = (
        Contrast.objects.annotate(left_change=_reclassification_of("left"), right_change=_reclassification_of("right"))
        .filter(Q(left_change__isnull=False) | Q(right_change__isnull=False))
        .select_related("left", "right", "left_component", "right_component")
        .order_by("id")
    )
    for contrast in contrasts:
        changes = {side: getattr(contrast, f"{side}_change") for side in ("left", "right")}
        changed = [contrast.side_name(side) for side, change in changes.items() if change is not None]
        report.contrast_after_reclassification.append(
            Finding(
                "contrast_after_reclassification",
                reclassified_contrast_key(contrast.pk, max(change for change in changes.values() if change is not None)),
                contrast.label,
                reverse("wiki:contrast-edit", kwargs={"pk": contrast.pk}),
                gettext_noop("%(names)s was reclassified after the contrast was written: do they still differ on “%(axis)s”?"),
                (("names", "all names", tuple(changed)), ("axis", "", contrast.axis)),
            )
        )


def last_change_marker() -> str:
    """What the report reads changed when this does: the latest recorded change, the newest saves, the row counts,
    the stored suggestions and the weights.

    One query. Every editing service records a change; the timestamps and counts catch saves made
    without one (the admin, a shell, an import), deletions included.
    """
    parts = [f"(SELECT max(id) FROM {ChangeEvent._meta.db_table})"]
    for model in (Classification, Claim, Source):
        parts += [f"(SELECT max(updated_at) FROM {model._meta.db_table})", f"(SELECT count(*) FROM {model._meta.db_table})"]
    parts.append(f"(SELECT count(*) FROM {Citation._meta.db_table})")
    parts.append(f"(SELECT count(*) || ':' || coalesce(max(id), 0) || ':' || coalesce(sum(claim_id), 0) || ':' || "
                 f"coalesce(max(updated_at)::text, '') FROM {Contrast._meta.db_table})")
    # The suggestions compared are the stored ones, which a refresh may bring up to date in several steps.
    parts.append(f"(SELECT count(*) || ':' || coalesce(max(refreshed_at)::text, '') FROM {StoredSuggestion._meta.db_table})")
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(parts))
        row = cursor.fetchone()
    return hashlib.sha256("|".join(str(value) for value in (*row, current_weights().version)).encode()).hexdigest()


def consistency_report_cached() -> ConsistencyReport:
    """``consistency_report()``, computed again only when the wiki changed (or after ``CACHE_SECONDS``), once for
    readers of every language.

    One request computes it at a time: the others meanwhile get the report computed last, if there is one, so that
    a change does not set every worker computing the same report at once.
    """
    suggestions_refresh()
    key = f"wiki:consistency-report:{release.RELEASE}:{last_change_marker()}"
    latest_key = f"wiki:consistency-report:{release.RELEASE}:latest"
    lock_key = f"wiki:consistency-report:{release.RELEASE}:computing"
    report: ConsistencyReport | None = cache.get(key)
    if report is not None:
        return report
    if not cache.add(lock_key, True, LOCK_SECONDS):
        latest: ConsistencyReport | None = cache.get(latest_key)
        if latest is not None:
            return latest
    try:
        report = consistency_report()
        cache.set(key, report, CACHE_SECONDS)
        cache.set(latest_key, report, LATEST_SECONDS)
    finally:
        cache.delete(lock_key)
    return report
