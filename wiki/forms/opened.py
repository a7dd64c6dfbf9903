"""What an edit form of a saved row held when it was opened, so that an edit conflict merges field by field.

The form carries, in a hidden ``opened`` value, each of the row's fields as the editor first saw it. When someone else
saved the row meanwhile, a field the editor left as it was takes the value saved since, a field only the editor
changed keeps theirs, and a field both changed keeps the editor's with the saved value named beside it: sending the
form again never undoes the other save without the editor seeing what it changed.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.forms.models import model_to_dict
from django.utils.translation import gettext_lazy as _

OPENED = "opened"


class OpenedField(forms.CharField):
    """The hidden ``opened`` value: JSON, each of the form's model fields as the form showed it first."""

    def __init__(self) -> None:
        super().__init__(required=False, strip=False, widget=forms.HiddenInput)


def remember_opened(form: forms.BaseForm, instance: models.Model | None = None) -> None:
    """Puts the fields of ``instance`` (a model form's own by default), as a newly opened ``form`` shows them, in
    its hidden ``opened`` value."""
    row = instance if instance is not None else getattr(form, "instance", None)
    if not form.is_bound and row is not None and row.pk is not None:
        form.initial[OPENED] = json.dumps(_saved(form, row))


def merge_saved_meanwhile(form: forms.BaseForm, current: models.Model) -> None:
    """``form``'s data with ``current`` (the row as someone else saved it since the form was opened) merged in:
    each field the editor did not change takes its value in ``current``; each field both changed stays as the editor
    sent it, with an error naming the value saved. The ``opened`` value becomes ``current``'s fields."""
    try:
        opened = json.loads(form.data.get(OPENED) or "{}")
    except ValueError:
        opened = {}
    values = _values(form, current)
    saved = {name: _canonical(form.fields[name], value) for name, value in values.items()}
    data = form.data.copy()  # type: ignore[attr-defined]  # a QueryDict from the request
    data[OPENED] = json.dumps(saved)
    clashes: list[str] = []
    for name, theirs in saved.items():
        if not isinstance(opened, dict) or name not in opened or theirs == opened[name]:
            continue
        mine = _canonical(form.fields[name], _posted(form, name))
        if mine == opened[name]:
            _put(data, form.fields[name], name, theirs)
        elif mine != theirs:
            clashes.append(name)
    form.data = data
    for name in clashes:
        form.add_error(name, saved_meanwhile(_shown(form, current, name, values[name])))


def saved_meanwhile(value: str) -> ValidationError:
    """The error beside a field (or a citation's) both editors changed, naming ``value``, the one saved meanwhile."""
    return ValidationError(
        _("Saved meanwhile by someone else: “%(value)s”. Your entry is kept here: keep it, or write theirs."),
        code="saved_meanwhile", params={"value": value})


def _saved(form: forms.BaseForm, instance: models.Model) -> dict[str, Any]:
    return {name: _canonical(form.fields[name], value) for name, value in _values(form, instance).items()}


def _values(form: forms.BaseForm, instance: models.Model) -> dict[str, Any]:
    """The fields of ``instance`` that ``form`` edits: a form of another shape than its model's (a claim's, a work's
    with its details a field each) says which and how it shows them (``values_of``), a model form edits the model's
    fields it has."""
    values_of = getattr(form, "values_of", None)
    if callable(values_of):
        # (a form made from it with fewer fields, as the admin's, remembers those it has)
        return {name: value for name, value in values_of(instance).items() if name in form.fields}
    model_fields = {field.name for field in instance._meta.get_fields()}
    return model_to_dict(instance, fields=[name for name in form.fields
                                           if name in model_fields and not form.fields[name].disabled])


def _posted(form: forms.BaseForm, name: str) -> Any:
    field = form.fields[name]
    raw = field.widget.value_from_datadict(form.data, form.files, form.add_prefix(name))
    try:
        return field.to_python(raw)
    except ValidationError:
        return raw


def _canonical(field: forms.Field, value: Any) -> Any:
    """``value`` of ``field`` as JSON compares it: model rows as their keys, several values in order, text as typed
    but for the line ends a browser sends."""
    prepared = field.prepare_value(value)
    if isinstance(prepared, (list, tuple, set, models.QuerySet)):
        return sorted(str(_canonical(field, item)) for item in prepared)
    if isinstance(prepared, models.Model):
        return str(prepared.pk)
    if prepared is None or prepared == "":
        return ""
    return str(prepared).replace("\r\n", "\n")


def _put(data: Any, field: forms.Field, name: str, value: Any) -> None:
    """``value`` (as :func:`_canonical` gives it) in ``data`` as the browser sends it."""
    if isinstance(field.widget, forms.CheckboxInput):
        if value == "True":
            data[name] = "on"
        else:
            data.pop(name, None)
    elif isinstance(value, list):
        data.setlist(name, value)
    else:
        data[name] = value


def _shown(form: forms.BaseForm, instance: models.Model, name: str, value: Any) -> str:
    """The field ``name`` as saved in ``instance``, as a reader says it: a choice by its label, a row by its name,
    several by theirs. ``value`` is the field as a form of its own shape shows it (``values_of``): a work's details
    are no attributes of the work."""
    display = getattr(instance, f"get_{name}_display", None)
    if callable(display):
        return str(display())
    if not callable(getattr(form, "values_of", None)):
        value = getattr(instance, name)
    if isinstance(value, models.Manager):
        value = list(value.all())
    if isinstance(value, (list, tuple)):
        return ", ".join(str(item) for item in value) or "—"
    return "—" if value in (None, "") else str(value)
