"""Loading the Agentic RL wiki from ``fixtures/``: sources, pages, classifications, contrasts, questions, the
glossary, and the consistency findings its editors dismissed.

Idempotent: records are matched on their natural keys (slugs, page + sentence) and updated in
place; a page whose text did not change gets no new revision, and a work, classification or question whose fields
did not change is not written (its ``updated_at`` stays, no change is recorded).

What the wiki's editors changed stays theirs: a page, work, classification, contrast, question or glossary term that
someone edited, deleted or merged in the wiki since it was loaded is left as they left it (every server start loads the
seed), and the report names it; ``overwrite`` writes the fixtures over it all the same.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection, transaction

from wiki.models import (
    ChangeEvent,
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
from wiki.services.classifications import classification_save
from wiki.services.glossary import glossary_load
from wiki.services.page_import import PageImportError, page_import, parse_page_file
from wiki.services.questions import question_update
from wiki.services.sources import SourceDuplicate, source_save


class SeedError(ValueError):
    pass


@dataclass
class SeedReport:
    lines: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)


@dataclass
class _Editors:
    """Which records the wiki's editors have changed (an entry of recent changes with a user): those the seed leaves
    alone, unless told to overwrite them."""

    overwrite: bool
    report: SeedReport
    pages: set[str] = field(default_factory=set)  # the pages left as the wiki has them

    def changed(self, kind: str, pk: int | None, label: str) -> bool:
        if self.overwrite or pk is None:
            return False
        if not ChangeEvent.objects.filter(kind=kind, object_id=pk, user__isnull=False).exists():
            return False
        self.report.kept.append(f"{label}: kept as edited in the wiki")
        return True

    def keeps(self, kind: str, found: tuple[int, datetime | None] | None, label: str) -> bool:
        """Whether a page or work ``found`` as (id, when deleted) stays as the wiki has it: deleted (or merged away)
        there, which the seed does not undo, or edited."""
        if found is None or self.overwrite:
            return False
        if found[1] is not None:
            self.report.kept.append(f"{label}: deleted in the wiki, not loaded again")
            return True
        return self.changed(kind, found[0], label)

    def kept_page(self, slug: str) -> bool:
        """Whether the page ``slug`` is left as the wiki has it (so its claims may no longer read as the seed's)."""
        return slug in self.pages


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise SeedError(f"{path}: cannot be read ({error.strerror or error})") from None


def _read(directory: Path, name: str) -> list[dict[str, Any]]:
    path = directory / name
    if not path.exists():
        return []
    try:
        data = json.loads(_read_bytes(path).decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        raise SeedError(f"{path}: not UTF-8 text (invalid byte at position {error.start})") from None
    except json.JSONDecodeError as error:
        raise SeedError(f"{path}: not JSON ({error.msg} at line {error.lineno})") from None
    if not isinstance(data, list):
        raise SeedError(f"{path} must hold a JSON list")
    return data


class _EditedAway(Exception):
    """A record of the seed refers to something the wiki's editors changed or deleted: a work, or a claim of a page
    they rewrote. The record is left as the wiki has it."""


def _claim(ref: dict[str, str] | None, editors: _Editors | None = None) -> Claim | None:
    if not ref:
        return None
    matches = list(Claim.objects.current().filter(page__slug=ref["page"], text__contains=ref["contains"])[:2])
    if len(matches) != 1:
        if editors is not None and editors.kept_page(ref["page"]):
            raise _EditedAway
        raise SeedError(f"{len(matches) or 'no'} claims on {ref['page']} contain “{ref['contains']}”; expected one")
    return matches[0]


def _live_works(*slugs: str) -> None:
    """Raises :class:`_EditedAway` when a work of ``slugs`` was deleted (or merged away) in the wiki."""
    if Source.all_objects.deleted().filter(slug__in=slugs).exclude(slug__in=Source.objects.values("slug")).exists():
        raise _EditedAway


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


class _Writes:
    """An execute wrapper counting the statements that write (the search index is built again only after one)."""

    count = 0

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if sql.lstrip()[:6].upper() in ("INSERT", "UPDATE", "DELETE"):
            self.count += 1
        return execute(sql, params, many, context)


# What a fixtures directory holds; any may be missing, but not all: that is another directory.
SEED_FILES = ("sources.json", "pages/*.md", "classifications.json", "contrasts.json", "questions.json",
              "dismissals.json", "glossary.json")


def seed_load(*, directory: Path, overwrite: bool = False) -> SeedReport:
    if not any(any(directory.glob(pattern)) for pattern in SEED_FILES):
        raise SeedError(f"{directory} holds none of the wiki's fixtures ({', '.join(SEED_FILES)})")
    writes = _Writes()
    with connection.execute_wrapper(writes), transaction.atomic():
        return _seed_load(directory, overwrite, writes)


def _seed_load(directory: Path, overwrite: bool, writes: _Writes) -> SeedReport:
    report = SeedReport()
    editors = _Editors(overwrite, report)
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
        found = Source.all_objects.filter(slug=row["slug"]).values_list("pk", "deleted_at").first()
        if editors.keeps(ChangeEvent.Kind.SOURCE, found, f"work {row['slug']}"):
            continue
        source = _source_load(row["slug"], defaults)
        for component in row.get("components") or []:
            _component_load(source, component["slug"], component["name"])
    report.lines.append(f"{Source.objects.count()} sources")

    for path in sorted((directory / "pages").glob("*.md")):
        try:
            page_file = parse_page_file(_read_bytes(path), filename=path.name)
            found = Page.all_objects.filter(slug=page_file.slug).values_list("pk", "deleted_at").first()
            if editors.keeps(ChangeEvent.Kind.PAGE, found, f"page {page_file.slug}"):
                editors.pages.add(page_file.slug)
                continue
            page_report = page_import(page_file=page_file)
        except PageImportError as error:
            raise SeedError(f"{path}: {error}") from None
        report.lines += page_report.lines()

    for row in _read(directory, "classifications.json"):
        try:
            _classification_row(row, editors)
        except _EditedAway:
            report.kept.append(f"classification of {row['source']}: left as the wiki has it")
    report.lines.append(f"{Classification.objects.count()} classifications")

    for row in _read(directory, "contrasts.json"):
        try:
            _contrast_row(row, editors)
        except _EditedAway:
            report.kept.append(f"contrast {row['left']} vs {row['right']}: left as the wiki has it")
    report.lines.append(f"{Contrast.objects.count()} contrasts")

    for row in _read(directory, "questions.json"):
        try:
            _question_row(row, editors)
        except _EditedAway:
            report.kept.append(f"question “{row['title']}”: left as the wiki has it")
    report.lines.append(f"{OpenQuestion.objects.count()} open questions")

    for row in _read(directory, "dismissals.json"):
        try:
            _dismissal_load(row)
        except _EditedAway:
            report.kept.append(f"a dismissed finding ({row.get('kind')}): its work was deleted in the wiki")
    report.lines.append(f"{FindingDismissal.objects.active().count()} dismissed findings")
    glossary = _read(directory, "glossary.json")
    terms = dict(GlossaryTerm.objects.filter(slug__in=[row.get("slug") for row in glossary]).values_list("slug", "pk"))
    glossary = [row for row in glossary
                if not editors.changed(ChangeEvent.Kind.GLOSSARY, terms.get(str(row.get("slug"))), f"glossary term {row.get('slug')}")]
    try:
        glossary_load(rows=glossary)
    except ValidationError as error:
        raise SeedError("; ".join(error.messages)) from None
    report.lines.append(f"{GlossaryTerm.objects.count()} glossary terms")
    if writes.count:
        search_reindex_all()
    report.lines += report.kept
    return report


def _classification_row(row: dict[str, Any], editors: _Editors) -> None:
    _live_works(row["source"])
    source = _source(row["source"])
    component = _component(source, row.get("component"))
    existing = Classification.objects.filter(source=source, component=component).values_list("pk", flat=True).first()
    name = f"classification of {source.slug}" + (f":{component.slug}" if component else "")
    if editors.changed(ChangeEvent.Kind.CLASSIFICATION, existing, name):
        return
    evidence = _claim(row.get("evidence"), editors)
    facts = row["facts"]
    _classification_load(
        source,
        component,
        {
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
        },
    )
    if evidence is not None:
        _about(evidence, source)


def _contrast_row(row: dict[str, Any], editors: _Editors) -> None:
    _live_works(row["left"], row["right"])
    left, right = _source(row["left"]), _source(row["right"])
    sides: dict[str, Any] = {"left": left, "left_component": _component(left, row.get("left_component")),
                             "right": right, "right_component": _component(right, row.get("right_component"))}
    contrast = Contrast.objects.filter(**sides).first()
    if editors.changed(ChangeEvent.Kind.CONTRAST, contrast.pk if contrast else None, f"contrast {left.slug} vs {right.slug}"):
        return
    claim = _claim(row.get("evidence"), editors)
    if contrast is None:
        Contrast.objects.create(**sides, axis=row["axis"], claim=claim)
    elif (contrast.axis, contrast.claim_id) != (row["axis"], claim.pk if claim else None):
        contrast.axis, contrast.claim = row["axis"], claim
        contrast.save(update_fields=["axis", "claim", "updated_at"])
    if claim is not None:
        _about(claim, left, right)


def _question_row(row: dict[str, Any], editors: _Editors) -> None:
    page = Page.all_objects.filter(slug=row.get("page")).first() if row.get("page") else None
    if page is not None and page.deleted_at is not None:
        raise _EditedAway
    _live_works(*(row.get("sources") or []))
    fields = {
        "text": row.get("text") or "",
        "status": row.get("status") or "open",
        "priority": row.get("priority") or "normal",
        "resolution_criteria": row.get("resolution") or "",
    }
    question = OpenQuestion.objects.filter(page=page, title=row["title"]).first()
    if question is not None and editors.changed(ChangeEvent.Kind.QUESTION, question.pk, f"question “{row['title']}”"):
        return
    claims = [c for c in (_claim(ref, editors) for ref in row.get("claims") or []) if c is not None]
    sources = [_source(slug) for slug in row.get("sources") or []]
    if question is None:
        question = OpenQuestion.objects.create(page=page, title=row["title"], **fields)
        question.claims.set(claims)
        question.sources.set(sources)
        return
    try:
        question_update(question=question, fields=fields, claims=claims, sources=sources)
    except ValidationError as error:
        raise SeedError(f"the question “{row['title']}”: {_problems(error)}") from None


# Loading the seed again writes nothing that is as the fixtures say: every write moves the content version, which
# empties every server's cache, and every server start loads the seed.
def _component_load(source: Source, slug: str, name: str) -> None:
    component = source.components.filter(slug=slug).first()
    if component is None:
        Component.objects.create(source=source, slug=slug, name=name)
    elif component.name != name:
        component.name = name
        component.save(update_fields=["name"])


def _about(claim: Claim, *sources: Source) -> None:
    """``claim`` made about ``sources``, written only where it is not yet (``add`` inserts every row anew)."""
    known = set(claim.about.filter(pk__in=[s.pk for s in sources]).values_list("pk", flat=True))
    missing = [source for source in sources if source.pk not in known]
    if missing:
        claim.about.add(*missing)


def _source_load(slug: str, fields: dict[str, Any]) -> Source:
    """The work ``slug`` with ``fields``: created, changed through :func:`source_save` (which records the change and
    writes nothing when the fields are as saved), or left as it is."""
    source = Source.objects.filter(slug=slug).first()
    try:
        if source is None:
            source = Source(slug=slug, **fields)
            source.full_clean()
            source.save()
            return source
        return source_save(source=source, fields=fields).source
    except (ValidationError, SourceDuplicate) as error:
        raise SeedError(f"source {slug}: {_problems(error)}") from None


def _classification_load(source: Source, component: Component | None, fields: dict[str, Any]) -> None:
    """Like :func:`_source_load`, through :func:`classification_save`; a classification the seed creates is the
    editors' own, with no history entry."""
    classification = Classification.objects.filter(source=source, component=component).first()
    try:
        if classification is None:
            classification = Classification(source=source, component=component, set_by=SetBy.EDITOR, **fields)
            classification.full_clean()
            classification.save()
        else:
            classification_save(source=source, component=component, classification=classification, fields=fields,
                                set_by=SetBy.EDITOR)
    except ValidationError as error:
        raise SeedError(f"the classification of {source.slug}: {_problems(error)}") from None


def _problems(error: Exception) -> str:
    return "; ".join(error.messages) if isinstance(error, ValidationError) else str(error)


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
        _live_works(ref["source"])
        source = _source(ref["source"])
        classification = Classification.objects.filter(source=source, component=_component(source, ref.get("component"))).first()
        if classification is None:
            raise SeedError(f"{source.slug} has no classification to dismiss a finding about")
        return classification.subject_name, classification_key(classification.pk)
    if kind == "one_sided_contrast" and isinstance(row.get("contrast"), dict):
        ref = row["contrast"]
        _live_works(ref["left"], ref["right"])
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
