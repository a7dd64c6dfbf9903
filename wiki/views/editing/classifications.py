"""Classifying a work (or component) through the rubric, with the classifier's suggestion alongside."""

from __future__ import annotations

import json
from typing import Any, cast

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import Truncator
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from classifier import FactValue
from wiki.field_labels import field_label_of
from wiki.forms.classifications import FACT_FIELDS, ClassificationForm, rubric_labels
from wiki.models import Claim, Classification, ClassificationChange, Component, SetBy, Source
from wiki.paginator import Paginator
from wiki.rationales import rationale_for_reader
from wiki.services.changes import StaleEdit
from wiki.services.classifications import classification_save
from wiki.taxonomy import mechanism_label, verdict_label
from wiki.views.editing import editor_required, next_address, stale_form
from wiki.views.editing.suggestion import SuggestionCard, suggestion_card

SAVED_FIELDS = ("mechanism", "algorithm", "updated", *FACT_FIELDS, "narrow", "verdict", "rationale", "evidence_claim", "evidence_locator")
SUGGESTED_FIELDS = ("mechanism", "verdict", "narrow", *FACT_FIELDS)


def _set_by(data: dict[str, Any], card: SuggestionCard | None) -> str:
    if card is not None and all(data.get(name) == card.values[name] for name in SUGGESTED_FIELDS):
        return SetBy.CLASSIFIER
    return SetBy.EDITOR


def _handle(request: HttpRequest, *, source: Source, classification: Classification | None) -> HttpResponse:
    component = classification.component if classification else None
    if classification is None and request.GET.get("component"):
        component = Component.objects.filter(source=source, slug=request.GET["component"]).first()
    card = suggestion_card(source, component)
    instance = classification or Classification(source=source, component=component)
    if request.method == "POST" and "accept" in request.POST and card is not None:
        # Without JavaScript, "Accept" fills the form from the suggestion; the editor still reviews and saves.
        accepted = {name: request.POST.get(name, "") for name in ("algorithm", "updated", "rationale", "evidence_locator",
                                                                     "evidence_claim", "component", "new_component",
                                                                     "loaded_at")}
        accepted.update({k: v for k, v in card.values.items() if v != "" or k not in ("algorithm", "updated")})
        form = ClassificationForm(initial=accepted, instance=instance, source=source)
    elif request.method == "POST":
        form = ClassificationForm(request.POST, instance=instance, source=source)
        if form.is_valid():
            data = form.cleaned_data
            try:
                saved = classification_save(
                    source=source, component=data.get("component") if classification is None else component,
                    new_component=data.get("new_component", ""),
                    classification=classification, fields={name: data[name] for name in SAVED_FIELDS},
                    user=request.user, set_by=_set_by(data, card), loaded_at=data.get("loaded_at"),
                )
            except StaleEdit as stale:
                stale_form(form, stale, what="classification")
                return _render(request, form=form, source=source, classification=cast(Classification, stale.current), card=card,
                               status=409)
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(request, _("Classification saved."))
                return redirect(next_address(request) or saved.source)
    else:
        initial: dict[str, Any] = {"loaded_at": classification.updated_at.isoformat()} if classification else {}
        if component and classification is None:
            initial["component"] = component.pk
        form = ClassificationForm(instance=instance, source=source, initial=initial)
    return _render(request, form=form, source=source, classification=classification, card=card)


def _render(request: HttpRequest, *, form: ClassificationForm, source: Source, classification: Classification | None,
            card: SuggestionCard | None, status: int = 200) -> HttpResponse:
    return render(request, "wiki/edit/classification_form.html", {
        "form": form, "source": source, "classification": classification, "card": card, "stale": status == 409,
        "next": next_address(request),
        "rubric": form.rubric(), "rubric_label": rubric_labels().get(form.rubric() or ""),
        "rubric_json": json.dumps(rubric_labels(), ensure_ascii=False),
    }, status=status)


@editor_required("wiki.add_classification", forms=[ClassificationForm])
def classification_create(request: HttpRequest, slug: str) -> HttpResponse:
    return _handle(request, source=get_object_or_404(Source.objects, slug=slug), classification=None)


@editor_required("wiki.change_classification", forms=[ClassificationForm])
def classification_edit(request: HttpRequest, pk: int) -> HttpResponse:
    classification = get_object_or_404(Classification.objects.with_related(), pk=pk)
    return _handle(request, source=classification.source, classification=classification)


FACT_VALUE_SHOWN = {FactValue.TRUE: _("yes"), FactValue.FALSE: _("no"), FactValue.UNKNOWN: _("unknown")}


def _shown(name: str, snapshot: dict[str, Any], claims: dict[int, str]) -> str:
    """A field's value in one snapshot of a history entry as the reader should read it ("—" where it had none)."""
    if name not in snapshot:
        return "—"
    value = snapshot[name]
    if name in FACT_FIELDS:
        return str(FACT_VALUE_SHOWN[FactValue.of(value)])
    if value is None or value == "":
        return "—"
    if name == "narrow":
        return str(FACT_VALUE_SHOWN[FactValue.of(bool(value))])
    if name == "mechanism":
        return mechanism_label(value)
    if name == "verdict":
        return verdict_label(value)
    if name == "set_by":
        return str(SetBy(value).label) if value in SetBy.values else str(value)
    if name == "rationale":
        return rationale_for_reader(str(value))
    if name == "evidence_claim":
        return claims.get(value, f"#{value}")
    return str(value)


@require_safe
def classification_history(request: HttpRequest, pk: int) -> HttpResponse:
    classification = get_object_or_404(Classification.objects.select_related("source", "component"), pk=pk)
    changes = Paginator(ClassificationChange.objects.filter(classification=classification).for_history(), 50).get_page(
        request.GET.get("p")
    )
    changed = [(change, change.changed_fields()) for change in changes]
    claim_ids = {value for _change, fields in changed for name, *values in fields if name == "evidence_claim"
                 for value in values if isinstance(value, int)}
    # a claim of a deleted page is shown by its number alone, as one deleted for good is
    claims = {claim: Truncator(text).chars(120)
              for claim, text in Claim.objects.on_live_pages().filter(pk__in=claim_ids).values_list("pk", "text")}
    rows = [
        (change, [(field_label_of(name), _shown(name, change.before, claims), _shown(name, change.after, claims))
                  for name, _before, _after in fields])
        for change, fields in changed
    ]
    return render(request, "wiki/edit/classification_history.html",
                  {"classification": classification, "changes": changes, "rows": rows})
