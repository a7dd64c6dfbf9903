"""Loading the Agentic RL wiki from ``fixtures/``: sources, pages, classifications, contrasts, questions, the
glossary, and the consistency findings its editors dismissed.

Idempotent: records are matched on their natural keys (slugs, page + sentence) and updated in
place, and a page whose text did not change gets no new revision.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from wiki.models import (
    Claim,
    Classification,
    Component,
    Contrast,
    FindingDismissal,
    GlossaryTerm,
    OpenQuestion,
    Page,
    SetBy,
    Source,
)
from wiki.reports.consistency import classification_key, contrast_key
from wiki.search.index import search_reindex_all
from wiki.services.glossary import glossary_load
from wiki.services.page_import import page_import, parse_page_file


class SeedError(ValueError):
    pass


@dataclass
class SeedReport:
    lines: list[str] = field(default_factory=list)


def _read(directory: Path, name: str) -> list[dict[str, Any]]:
    path = directory / name
    if not path.exists():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, list):
        raise SeedError(f"{path} must hold a JSON list")
    return data


def _claim(ref: dict[str, str] | None) -> Claim | None:
    if not ref:
        return None
    matches = list(Claim.objects.current().filter(page__slug=ref["page"], text__contains=ref["contains"])[:2])
    if len(matches) != 1:
        raise SeedError(f"{len(matches) or 'no'} claims on {ref['page']} contain “{ref['contains']}”; expected one")
    return matches[0]


def _component(source: Source, slug: str | None) -> Component | None:
    if not slug:
        return None
    try:
        return source.components.get(slug=slug)
    except Component.DoesNotExist:
        raise SeedError(f"{source.slug} has no component {slug}") from None


def _source(slug: str) -> Source:
    try:
        return Source.objects.get(slug=slug)
    except Source.DoesNotExist:
        raise SeedError(f"no source with slug {slug}") from None


@transaction.atomic
def seed_load(*, directory: Path) -> SeedReport:
    report = SeedReport()
    for row in _read(directory, "sources.json"):
        authors = row.get("authors") or []
        defaults = {
            "short_name": row["short_name"],
            "title": row.get("title") or row["short_name"],
            "kind": row.get("kind") or "paper",
            "authors": "; ".join(authors) if isinstance(authors, list) else str(authors),
            "year": row.get("year"),
            "venue": row.get("venue") or "",
            "url": row.get("url") or "",
            "arxiv_id": row.get("arxiv_id") or "",
            "doi": row.get("doi") or "",
            "abstract": row.get("abstract") or "",
            "notes": row.get("notes") or "",
        }
        source, _ = Source.objects.update_or_create(slug=row["slug"], defaults=defaults)
        for component in row.get("components") or []:
            Component.objects.update_or_create(source=source, slug=component["slug"], defaults={"name": component["name"]})
    report.lines.append(f"{Source.objects.count()} sources")

    for path in sorted((directory / "pages").glob("*.md")):
        page_report = page_import(page_file=parse_page_file(path.read_bytes(), filename=path.name))
        report.lines += page_report.lines()

    for row in _read(directory, "classifications.json"):
        source = _source(row["source"])
        component = _component(source, row.get("component"))
        evidence = _claim(row.get("evidence"))
        facts = row["facts"]
        Classification.objects.update_or_create(
            source=source,
            component=component,
            defaults={
                "mechanism": row["mechanism"],
                "algorithm": row.get("algorithm") or "",
                "updated": row.get("updated") or "",
                "interactive_env": facts.get("interactive_env"),
                "multi_step": facts.get("multi_step"),
                "verifiable_reward": facts.get("verifiable_reward"),
                "rl_update": facts.get("rl_update"),
                "narrow": row.get("narrow", False),
                "verdict": row["verdict"],
                "rationale": row.get("rationale") or "",
                "evidence_claim": evidence,
                "evidence_locator": _locator_of(evidence, source),
                "set_by": SetBy.EDITOR,
            },
        )
        if evidence is not None:
            evidence.about.add(source)
    report.lines.append(f"{Classification.objects.count()} classifications")

    for row in _read(directory, "contrasts.json"):
        left, right = _source(row["left"]), _source(row["right"])
        claim = _claim(row.get("evidence"))
        Contrast.objects.update_or_create(
            left=left,
            left_component=_component(left, row.get("left_component")),
            right=right,
            right_component=_component(right, row.get("right_component")),
            defaults={"axis": row["axis"], "claim": claim},
        )
        if claim is not None:
            claim.about.add(left, right)
    report.lines.append(f"{Contrast.objects.count()} contrasts")

    for row in _read(directory, "questions.json"):
        page = Page.objects.filter(slug=row.get("page")).first()
        question, _ = OpenQuestion.objects.update_or_create(
            page=page,
            title=row["title"],
            defaults={
                "text": row.get("text") or "",
                "status": row.get("status") or "open",
                "priority": row.get("priority") or "normal",
                "resolution_criteria": row.get("resolution") or "",
            },
        )
        question.claims.set([c for c in (_claim(ref) for ref in row.get("claims") or []) if c is not None])
        question.sources.set([_source(slug) for slug in row.get("sources") or []])
    report.lines.append(f"{OpenQuestion.objects.count()} open questions")

    for row in _read(directory, "dismissals.json"):
        _dismissal_load(row)
    report.lines.append(f"{FindingDismissal.objects.active().count()} dismissed findings")
    try:
        glossary_load(rows=_read(directory, "glossary.json"))
    except ValidationError as error:
        raise SeedError("; ".join(error.messages)) from None
    report.lines.append(f"{GlossaryTerm.objects.count()} glossary terms")
    search_reindex_all()
    return report


def _locator_of(claim: Claim | None, source: Source) -> str:
    if claim is None:
        return ""
    citation = claim.citations.filter(source=source).exclude(locator="").first()
    return citation.locator if citation else ""


def _dismissal_target(row: dict[str, Any]) -> tuple[str, str]:
    """The subject and key of the finding a dismissal of ``dismissals.json`` names by its objects' slugs."""
    kind = row.get("kind")
    if kind in ("verdict_disagrees", "no_evidence", "rl_name_not_rl") and isinstance(row.get("classification"), dict):
        ref = row["classification"]
        source = _source(ref["source"])
        classification = Classification.objects.filter(source=source, component=_component(source, ref.get("component"))).first()
        if classification is None:
            raise SeedError(f"{source.slug} has no classification to dismiss a finding about")
        return classification.subject_name, classification_key(classification.pk)
    if kind == "one_sided_contrast" and isinstance(row.get("contrast"), dict):
        ref = row["contrast"]
        left, right = _source(ref["left"]), _source(ref["right"])
        contrast = Contrast.objects.filter(
            left=left, left_component=_component(left, ref.get("left_component")),
            right=right, right_component=_component(right, ref.get("right_component")),
        ).first()
        if contrast is None or contrast.claim_id is None:
            raise SeedError(f"no contrast of {left.slug} and {right.slug} with an evidence claim")
        return f"{left.short_name} vs {right.short_name}", contrast_key(contrast.pk, contrast.claim_id)
    raise SeedError(f"a dismissal must name a classification or a contrast for its kind, not {row!r}")


def _dismissal_load(row: dict[str, Any]) -> None:
    """Dismisses the finding unless it was ever dismissed: an editor's reopening stays, the seed's reason is kept up to date."""
    subject, key = _dismissal_target(row)
    reason = str(row.get("reason") or "").strip()
    if not reason:
        raise SeedError(f"the dismissal of {subject} gives no reason")
    latest = FindingDismissal.objects.filter(kind=row["kind"], key=key).order_by("-id").first()
    if latest is None:
        FindingDismissal.objects.create(kind=row["kind"], key=key, subject=subject, reason=reason)
    elif latest.reopened_at is None and latest.dismissed_by_id is None and (latest.reason, latest.subject) != (reason, subject):
        latest.reason, latest.subject = reason, subject
        latest.save(update_fields=["reason", "subject"])
