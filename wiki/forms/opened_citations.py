"""What a claim's citation rows held when its form was opened, so that an edit conflict merges row by row.

As :mod:`wiki.forms.opened` does for a form's fields: the claim form carries, in a hidden ``opened_citations`` value,
its citations as the editor first saw them (work, locator, kind, in order). When someone else saved the claim
meanwhile, a row the editor left as it was takes what was saved since (changed, or gone when they removed it), a row
they added is there, and a row both changed, or one the editor changed that they removed, keeps the editor's with
what was saved named beside it: sending the form again never undoes the other save without the editor seeing it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from wiki.forms.opened import saved_meanwhile
from wiki.models import CitationKind, Claim, Source

OPENED_CITATIONS = "opened_citations"
# A row as compared: the work's key, the locator as typed, the kind.
Row = tuple[int, str, str]
_FIELDS = ("source", "locator", "kind")
# What a row posts after the formset's prefix: its number, a dash and the field's name.
_ROW_FIELD = re.compile(r"\d+-\w+")


@dataclass(frozen=True)
class _Merged:
    """A row of the merged form: what it sends, whether it is ticked to delete, what was saved in its place when the
    editor's entry is kept over it (None when nothing clashes), and whether it was removed meanwhile."""

    row: Row
    deleted: bool = False
    theirs: Row | None = None
    removed: bool = False


def citation_rows(claim: Claim) -> list[Row]:
    """``claim``'s citations as the form shows them, in order (prefetched with their works by
    :meth:`~wiki.models.ClaimQuerySet.with_citations`)."""
    return [(citation.source_id, citation.locator, citation.kind) for citation in claim.citations.all()]


def remember_opened_citations(form: forms.BaseForm, claim: Claim) -> None:
    """Puts ``claim``'s citations, as a newly opened form shows them, in ``form``'s hidden ``opened_citations`` value."""
    form.initial[OPENED_CITATIONS] = json.dumps(citation_rows(claim))


def merge_citations_saved_meanwhile(*, form: forms.BaseForm, formset: forms.BaseFormSet,  # type: ignore[type-arg]
                                    current: Claim) -> forms.BaseFormSet:  # type: ignore[type-arg]
    """A formset of ``formset``'s rows with ``current``'s citations (as someone else saved them since the form was
    opened) merged in, ``current``'s citations first and in their order, then the rows the editor added. A row
    the editor left as it was is as saved now; a row both changed keeps the editor's entry with an error naming
    what was saved. ``form``'s ``opened_citations`` becomes ``current``'s citations. A form without a readable
    ``opened_citations`` (opened before it was kept) is not merged."""
    saved = citation_rows(current)
    works: dict[int, Source] = {citation.source_id: citation.source for citation in current.citations.all()}
    opened = _read(form.data.get(OPENED_CITATIONS))
    data = form.data.copy()  # type: ignore[attr-defined]  # a QueryDict from the request
    data[OPENED_CITATIONS] = json.dumps(saved)
    form.data = data
    initial = formset.initial_form_count()
    if opened is None or len(opened) != initial:
        return formset
    sent: list[tuple[Row | None, bool]] = []
    for row_form in formset.forms:
        cleaned = row_form.cleaned_data
        source = cleaned.get("source") if cleaned else None
        if source is not None:
            works[source.pk] = source
        sent.append(((source.pk, cleaned["locator"], cleaned["kind"]) if source is not None else None,
                     bool(cleaned and cleaned.get("DELETE"))))
    merged = _merged(opened, saved, sent[:initial], sent[initial:])
    # the form and its rows are sent together, as a browser sends the page
    form.data = _formset_data(form.data, formset, merged, works, initial=len(saved))
    result = type(formset)(form.data, prefix=formset.prefix)
    result.is_valid()
    for row_form, row in zip(result.forms, merged, strict=False):
        if row.removed:
            row_form.add_error("source", ValidationError(
                _("Removed meanwhile by someone else. Your entry is kept here: keep it, or delete it."),
                code="removed_meanwhile"))
        elif row.theirs is not None:
            name = next((name for index, name in enumerate(_FIELDS) if row.row[index] != row.theirs[index]), "source")
            row_form.add_error(name, saved_meanwhile(_shown(row.theirs, name, works)))
    return result


def _merged(opened: list[Row], saved: list[Row], sent: list[tuple[Row | None, bool]],
            added: list[tuple[Row | None, bool]]) -> list[_Merged]:
    matched = _match(opened, saved)
    at: dict[int, _Merged] = {}
    kept_over_removed: list[_Merged] = []
    for index, was in enumerate(opened):
        mine, deleted = sent[index]
        changed = deleted or mine != was
        if index not in matched:
            # Removed meanwhile: gone, unless the editor changed it.
            if changed and not deleted and mine is not None:
                kept_over_removed.append(_Merged(mine, removed=True))
            continue
        theirs = saved[matched[index]]
        if not changed or mine is None:
            at[matched[index]] = _Merged(theirs)
        elif theirs == was or (theirs == mine and not deleted):
            at[matched[index]] = _Merged(mine, deleted)
        else:
            at[matched[index]] = _Merged(mine, deleted, theirs=theirs)
    rows = [at.get(position, _Merged(row)) for position, row in enumerate(saved)]
    shown = {row.row for row in rows}
    for mine, deleted in added:
        if mine is not None and not deleted and mine not in shown:
            rows.append(_Merged(mine))
            shown.add(mine)
    return [*rows, *kept_over_removed]


def _match(opened: list[Row], saved: list[Row]) -> dict[int, int]:
    """Which saved row each opened row became: the same row where it is still there, else the next row citing the
    same work (its locator or kind changed); an opened row without one was removed."""
    matched: dict[int, int] = {}
    free = list(range(len(saved)))
    for same_work in (False, True):
        for index, was in enumerate(opened):
            if index in matched:
                continue
            found = next((position for position in free
                          if (saved[position][0] == was[0] if same_work else saved[position] == was)), None)
            if found is not None:
                matched[index] = found
                free.remove(found)
    return matched


def _formset_data(sent: Any, formset: forms.BaseFormSet, rows: list[_Merged],  # type: ignore[type-arg]
                  works: dict[int, Source], *, initial: int) -> Any:
    """``sent`` (the form's data, merged) with ``rows`` in place of the rows sent, as a browser sends them."""
    data = sent.copy()
    prefix = f"{formset.prefix}-"
    for name in [name for name in data if name.startswith(prefix) and _ROW_FIELD.fullmatch(name, len(prefix))]:
        del data[name]
    for index, row in enumerate(rows):
        at = formset.add_prefix(index)
        data[f"{at}-source"] = works[row.row[0]].slug
        data[f"{at}-locator"] = row.row[1]
        data[f"{at}-kind"] = row.row[2]
        if row.deleted:
            data[f"{at}-DELETE"] = "on"
    # the empty row to add one more, as a browser sends it
    data[f"{formset.add_prefix(len(rows))}-kind"] = str(formset.form.base_fields["kind"].initial)
    data[f"{formset.prefix}-TOTAL_FORMS"] = str(len(rows) + 1)
    data[f"{formset.prefix}-INITIAL_FORMS"] = str(initial)
    return data


def _read(value: object) -> list[Row] | None:
    try:
        rows = json.loads(str(value or ""))
        if not isinstance(rows, list) or not all(isinstance(row, list) and len(row) == 3 for row in rows):
            return None
        return [(int(pk), str(locator), str(kind)) for pk, locator, kind in rows]
    except (ValueError, TypeError):
        return None


def _shown(row: Row, name: str, works: dict[int, Source]) -> str:
    kind = str(CitationKind(row[2]).label) if row[2] in CitationKind.values else row[2]
    if name == "locator":
        return row[1] or "—"
    if name == "kind":
        return kind
    return ", ".join(part for part in (works[row[0]].short_name, row[1], kind) if part)
