"""Merging two works that turn out to be one, and undoing it.

What pointed at the merged work moves to the kept one: citations, the claims about it, its classifications
(with their history, which belongs to them) and components, contrasts and open questions. A link the kept
work has already (a claim citing both at the same locator, a question linked to both) is dropped from the
merged work rather than doubled, and recorded. The merged work is hidden like a deleted one and its
address leads to the kept work. :class:`SourceMerge` records exactly what moved, so the undo moves back
those rows and only those, and restores the merged work. The kept work may take some of the merged work's values,
field by field (:mod:`wiki.services.merge_fields`); the undo gives those fields back.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from wiki.change_summaries import summary
from wiki.models import (
    ChangeEvent,
    Citation,
    Claim,
    Classification,
    Component,
    Contrast,
    OpenQuestion,
    Page,
    Source,
    SourceMerge,
)
from wiki.references.locators import locator_key
from wiki.roles import User, account
from wiki.search.index import search_reindex_claims, search_reindex_sources
from wiki.services.changes import StaleEdit, change_record
from wiki.services.merge_fields import merge_fields_give_back, merge_fields_take
from wiki.services.watches import watches_merge, watches_merge_undo

_MERGE_FIELDS = ["deleted_at", "deleted_by", "deleted_reason", "merged_into", "updated_at"]


class MergeAlreadyUndone(ValidationError):
    """The merge was undone already (a second click, another editor): nothing to do, the merged work is back."""

    def __init__(self) -> None:
        super().__init__(_("This merge is undone already."), code="undone")


def source_merged_here(*, slug: str, kept: Source) -> SourceMerge | None:
    """The merge, still in force, of the work at ``slug`` into ``kept``: a work at that address no longer exists
    because it was merged into this one, which cannot then be merged back into it (undo that merge instead)."""
    return (SourceMerge.objects.filter(merged__slug=slug, merged__merged_into=kept, undone_at__isnull=True)
            .select_related("merged").order_by("-pk").first())


def _links(through: type[models.Model], own: str, *, source: Source, kept: Source) -> tuple[list[int], list[int]]:
    """Moves the rows of an m2m table from ``source`` to ``kept``: the owners moved, and the owners dropped (linked to
    both already)."""
    rows = through._default_manager.filter(source_id=source.pk)
    owners = set(rows.values_list(f"{own}_id", flat=True))
    both = set(through._default_manager.filter(source_id=kept.pk, **{f"{own}_id__in": owners})
               .values_list(f"{own}_id", flat=True))
    moving = sorted(owners - both)
    rows.filter(**{f"{own}_id__in": moving}).update(source_id=kept.pk)
    rows.filter(**{f"{own}_id__in": both}).delete()
    return moving, sorted(both)


def _links_back(through: type[models.Model], own: str, *, kept: Source, merged: Source, moved: list[int], dropped: list[int]) -> None:
    """Undoes :func:`_links`: the moved rows go back to ``merged``, the dropped ones are made again."""
    through._default_manager.filter(source_id=kept.pk, **{f"{own}_id__in": moved}).update(source_id=merged.pk)
    through._default_manager.bulk_create([through(source_id=merged.pk, **{f"{own}_id": owner}) for owner in dropped],
                                         ignore_conflicts=True)


def _contrast_sides(merged: Source, kept: Source, components: set[int]) -> list[list[Any]]:
    """Moves the merged work's side of each contrast that stays a contrast of two different things, is not one
    the kept work has already, and whose component (if any) moved too. Returns ``[contrast id, side]`` pairs."""
    moved: list[list[Any]] = []
    for contrast in Contrast.all_objects.filter(models.Q(left=merged) | models.Q(right=merged)).order_by("pk"):
        sides = [side for side in ("left", "right") if getattr(contrast, f"{side}_id") == merged.pk
                 and getattr(contrast, f"{side}_component_id") in (None, *components)]
        if not sides:
            continue
        after = {f"{side}_id": kept.pk for side in sides}
        pair = {name: after.get(f"{name}_id", getattr(contrast, f"{name}_id"))
                for name in ("left", "left_component", "right", "right_component")}
        same = pair["left"] == pair["right"] and pair["left_component"] == pair["right_component"]
        taken = Contrast.all_objects.filter(**{f"{k}_id": v for k, v in pair.items()}).exclude(pk=contrast.pk).exists()
        if same or taken:
            continue
        Contrast.all_objects.filter(pk=contrast.pk).update(**after)
        moved.extend([contrast.pk, side] for side in sides)
    return moved


def _after_move(kept: Source, merged: Source) -> None:
    from wiki.services.pages import pages_rerender

    # The kept work shows other classifications and components now, and the classifications and contrasts moved name
    # it: its time moves (the merged work's is saved with its mark), so that ``?updated_after=`` finds them all.
    kept.updated_at = timezone.now()
    Source.all_objects.filter(pk=kept.pk).update(updated_at=kept.updated_at)

    # Citation markers and the works pages link to follow the citations; search documents count the claims citing.
    pages_rerender(pages=Page.objects.filter(claims__citations__source__in=[kept.pk, merged.pk]).distinct())
    search_reindex_sources([kept.pk, merged.pk])
    search_reindex_claims(Citation.objects.filter(source__in=[kept.pk, merged.pk]).values_list("claim_id", flat=True))


@transaction.atomic
def source_merge(*, merged: Source, kept: Source, user: User | None, take: Collection[str] = (),
                 seen: dict[int, datetime] | None = None) -> SourceMerge:
    """Merges ``merged`` into ``kept`` (see the module's docstring); ``kept``'s own classification stands when both
    have one, the merged work's staying with it (it comes back on undo). ``kept`` takes ``merged``'s value of each
    field of ``take``. ``seen``: each work's ``updated_at`` when the editor compared them; a save since raises
    :class:`~wiki.services.changes.StaleEdit` (the kept work, as saved now) and nothing is merged."""
    if take:
        # As a save of the kept work's title or name does: no work is added as it meanwhile.
        from wiki.services.sources import sources_lock_creation

        sources_lock_creation()
    locked = {s.pk: s for s in Source.all_objects.select_for_update().filter(pk__in=[merged.pk, kept.pk]).order_by("pk")}
    merged, kept = locked[merged.pk], locked[kept.pk]
    for work in (kept, merged):
        if seen is not None and work.pk in seen and work.updated_at != seen[work.pk]:
            raise StaleEdit(work)
    if merged.pk == kept.pk:
        raise ValidationError({"into": ValidationError(_("A work cannot be merged into itself."), code="same")})
    if merged.is_deleted or kept.is_deleted:
        raise ValidationError({"into": ValidationError(_("Both works must exist (not deleted or merged)."), code="deleted")})

    kept_slugs = set(Component.objects.filter(source=kept).values_list("slug", flat=True))
    components = [c for c in Component.objects.filter(source=merged).order_by("pk") if c.slug not in kept_slugs]
    component_ids = [c.pk for c in components]
    Component.objects.filter(pk__in=component_ids).update(source=kept)

    kept_classified = Classification.all_objects.filter(source=kept, component__isnull=True).exists()
    classifications = [c.pk for c in Classification.all_objects.filter(source=merged).order_by("pk")
                       if (c.component_id is None and not kept_classified) or c.component_id in component_ids]
    Classification.all_objects.filter(pk__in=classifications).update(source=kept)

    # A claim citing both at one locator, however typed (``pp.3-4``, ``第3-4页``), keeps the kept work's citation.
    cited = {(claim_id, locator_key(locator)) for claim_id, locator in
             Citation.objects.filter(source=kept).values_list("claim_id", "locator")}
    citations = list(Citation.objects.filter(source=merged).order_by("pk").values("id", "claim_id", "locator", "kind", "position"))
    moving, dropped = [], []
    for c in citations:
        key = (c["claim_id"], locator_key(c["locator"]))
        if key in cited:
            dropped.append(c)
        else:
            moving.append(c["id"])
            cited.add(key)
    Citation.objects.filter(pk__in=moving).update(source=kept)
    Citation.objects.filter(pk__in=[c["id"] for c in dropped]).delete()

    about, about_dropped = _links(Claim.about.through, "claim", source=merged, kept=kept)
    questions, questions_dropped = _links(OpenQuestion.sources.through, "openquestion", source=merged, kept=kept)
    contrasts = _contrast_sides(merged, kept, set(component_ids))

    earlier = list(Source.all_objects.filter(merged_into=merged).values_list("pk", flat=True))
    Source.all_objects.filter(pk__in=earlier).update(merged_into=kept)

    merged.deleted_at, merged.deleted_by, merged.merged_into = timezone.now(), account(user), kept
    merged.deleted_reason = f"merged into {kept.short_name}"[:500]
    merged.save(update_fields=_MERGE_FIELDS)
    fields = merge_fields_take(kept=kept, merged=merged, names=list(take)) if take else {}
    merge = SourceMerge.objects.create(kept=kept, merged=merged, user=account(user), moved={
        "components": component_ids, "classifications": classifications,
        "citations": moving, "citations_dropped": dropped,
        "claims_about": about, "claims_about_dropped": about_dropped,
        "questions": questions, "questions_dropped": questions_dropped,
        "contrasts": contrasts, "merged_earlier": earlier, **watches_merge(merged=merged, kept=kept),
        "fields": fields,
    })
    counts = {"citations": len(moving), "classifications": len(classifications), "contrasts": len(contrasts),
              "questions": len(questions)}
    said = summary("merged_fields", **counts, fields=list(fields)) if fields else summary("merged", **counts)
    change_record(kind=ChangeEvent.Kind.SOURCE, action=ChangeEvent.Action.MERGED, obj=merged,
                  label=f"{merged.short_name} → {kept.short_name}", url=kept.get_absolute_url(), user=user, summary=said)
    _after_move(kept, merged)
    return merge


@transaction.atomic
def source_merge_undo(*, merge: SourceMerge, user: User | None) -> Source:
    """Moves back what the merge moved, restores the links it dropped and the merged work; returns the merged work.

    Refused when the kept work was itself merged or deleted since (undo that first), or the merge was undone."""
    merge = SourceMerge.objects.select_for_update().select_related("kept", "merged").get(pk=merge.pk)
    kept, merged = merge.kept, merge.merged
    if merge.undone_at is not None:
        raise MergeAlreadyUndone
    if kept.is_deleted or merged.merged_into_id != kept.pk:
        raise ValidationError(_("The kept work was merged or deleted since: undo that first."), code="later")
    moved = merge.moved
    Component.objects.filter(pk__in=moved["components"], source=kept).update(source=merged)
    Classification.all_objects.filter(pk__in=moved["classifications"], source=kept).update(source=merged)
    Citation.objects.filter(pk__in=moved["citations"], source=kept).update(source=merged)
    claims = set(Claim.objects.filter(pk__in=[c["claim_id"] for c in moved["citations_dropped"]]).values_list("pk", flat=True))
    Citation.objects.bulk_create([Citation(source=merged, **c) for c in moved["citations_dropped"] if c["claim_id"] in claims])
    _links_back(Claim.about.through, "claim", kept=kept, merged=merged, moved=moved["claims_about"],
                dropped=moved["claims_about_dropped"])
    _links_back(OpenQuestion.sources.through, "openquestion", kept=kept, merged=merged, moved=moved["questions"],
                dropped=moved["questions_dropped"])
    for contrast_id, side in moved["contrasts"]:
        Contrast.all_objects.filter(pk=contrast_id, **{f"{side}_id": kept.pk}).update(**{f"{side}_id": merged.pk})
    Source.all_objects.filter(pk__in=moved["merged_earlier"], merged_into=kept).update(merged_into=merged)
    watches_merge_undo(merged=merged, kept=kept, moved=moved)
    merge_fields_give_back(kept=kept, taken=moved.get("fields", {}))

    merged.deleted_at, merged.deleted_by, merged.deleted_reason, merged.merged_into = None, None, "", None
    merged.save(update_fields=_MERGE_FIELDS)
    merge.undone_at, merge.undone_by = timezone.now(), account(user)
    merge.save(update_fields=["undone_at", "undone_by"])
    change_record(kind=ChangeEvent.Kind.SOURCE, action=ChangeEvent.Action.UNMERGED, obj=merged,
                  label=f"{merged.short_name} ← {kept.short_name}", url=merged.get_absolute_url(), user=user)
    _after_move(kept, merged)
    return merged
