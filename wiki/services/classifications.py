"""Saving a classification through the rubric; every change is kept with its before and after."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from wiki.change_summaries import summary
from wiki.models import ChangeEvent, Classification, ClassificationChange, Component, SetBy, Source
from wiki.models.rules import fit
from wiki.roles import User, account
from wiki.search.index import search_reindex_sources
from wiki.services.changes import change_record, check_not_stale
from wiki.services.components import component_create

TRACKED_FIELDS = (
    "mechanism", "algorithm", "updated", "interactive_env", "multi_step", "verifiable_reward", "rl_update",
    "narrow", "verdict", "rationale", "evidence_claim", "evidence_locator", "set_by",
)


def classification_snapshot(classification: Classification) -> dict[str, Any]:
    """The tracked fields as JSON (the evidence claim by id)."""
    snapshot: dict[str, Any] = {}
    for name in TRACKED_FIELDS:
        snapshot[name] = classification.evidence_claim_id if name == "evidence_claim" else getattr(classification, name)
    return snapshot


def _label(classification: Classification) -> str:
    source = classification.source
    return f"{source.short_name} — {classification.component.name}" if classification.component_id else source.short_name  # type: ignore[union-attr]


@transaction.atomic
def classification_save(
    *,
    source: Source,
    fields: dict[str, Any],
    user: User | None = None,
    component: Component | None = None,
    new_component: str = "",
    classification: Classification | None = None,
    set_by: str = SetBy.EDITOR,
    loaded_at: datetime | None = None,
) -> Classification:
    """Creates or changes the classification of ``source`` (or its ``component``); writes a history entry if anything changed.

    ``new_component`` names a component to add to the work and classify, in place of ``component`` (both given is a
    ``ValidationError``): both are saved, or neither (:func:`wiki.services.components.component_create` says when a
    name is refused).

    ``loaded_at`` is the classification's ``updated_at`` when the editor opened the form; a save since raises
    :class:`StaleEdit` and nothing is written. A change that changes no field writes nothing at all.
    """
    if classification is None:
        # Locking the source makes a second editor classifying the same work at once wait, then fail full_clean's
        # uniqueness check with a message instead of the database's unique constraint with a server error.
        Source.objects.select_for_update().filter(pk=source.pk).first()
        if new_component.strip() and component is not None:
            raise ValidationError({"new_component": _("Choose one of the work's components or name a new one, not both.")},
                                  code="component_twice")
        if new_component.strip():
            try:
                component = component_create(source=source, name=new_component)
            except ValidationError as error:
                raise ValidationError({"new_component": error.error_list}) from error
        classification = Classification(source=source, component=component)
        before: dict[str, Any] = {}
    else:
        classification = Classification.objects.select_for_update().get(pk=classification.pk)
        check_not_stale(classification, loaded_at=loaded_at)
        before = classification_snapshot(classification)
    for name, value in fields.items():
        setattr(classification, name, value)
    if before and all(before[name] == value for name, value in classification_snapshot(classification).items()
                      if name != "set_by"):
        # Nothing changed: nothing is written, and the classification stays credited to whoever set it.
        return classification
    classification.set_by = set_by
    classification.set_by_user = account(user)
    classification.full_clean()
    created = classification.pk is None
    classification.save()
    after = classification_snapshot(classification)
    if before != after:
        ClassificationChange.objects.create(
            classification=classification, user=classification.set_by_user, before=before, after=after
        )
        changed = [name for name in TRACKED_FIELDS if before.get(name) != after.get(name)]
        change_record(
            kind=ChangeEvent.Kind.CLASSIFICATION,
            action=ChangeEvent.Action.CREATED if created else ChangeEvent.Action.EDITED,
            obj=classification, label=_label(classification),
            url=reverse("wiki:classification-history", kwargs={"pk": classification.pk}),
            summary=summary("classified", mechanism=after["mechanism"], verdict=after["verdict"]) if created else
            summary("reclassified", mechanism=after["mechanism"], verdict=after["verdict"], fields=changed),
            user=user,
        )
        # The source's search document carries its mechanism and verdict.
        search_reindex_sources([classification.source_id])
    return classification


@transaction.atomic
def classification_accept_suggestion(*, source: Source, user: User | None = None) -> Classification:
    """Saves the classifier's suggestion for ``source`` as its classification, recorded as an accepted suggestion.

    The suggestion is the one every page shows (``wiki.suggestions.suggestion_for``). Refuses with a
    :class:`ValidationError` a work classified already (code ``classified``) and a work with nothing to read,
    which has no suggestion (code ``no_suggestion``).
    """
    from wiki.suggestions import suggestion_for

    # Locked first, so that of two editors accepting the same work at once the second is told it is classified.
    Source.objects.select_for_update().filter(pk=source.pk).first()
    if Classification.objects.filter(source=source).exists():
        raise ValidationError(_("%(work)s is classified already; nothing was changed."), code="classified",
                              params={"work": source.short_name})
    view = suggestion_for(source)
    if not view.has_suggestion:
        raise ValidationError(
            _("%(work)s has no suggestion to accept: there is no abstract and no claim about it to read. "
              "Classify it through the override form."), code="no_suggestion", params={"work": source.short_name})
    suggestion = view.suggestion
    fields: dict[str, Any] = {fact.fact.value: fact.value.as_bool for fact in suggestion.facts}
    fields.update(mechanism=suggestion.mechanism.value, verdict=suggestion.verdict.value,
                  algorithm=suggestion.algorithm or "", updated=fit(Classification, "updated", suggestion.updated or ""),
                  narrow=suggestion.narrow, rationale=suggestion.rationale)
    return classification_save(source=source, fields=fields, user=user, set_by=SetBy.CLASSIFIER)
