"""How a page says that a form it shows was sent back with errors: its title, and fields that share an error."""

from __future__ import annotations

from django import template
from django.forms import BaseForm, BaseFormSet, BoundField
from django.template import Context
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django_filters import FilterSet

from wiki.graph.context import LocalGraph

register = template.Library()


def _rejected(value: object) -> bool:
    # type(), not isinstance(): isinstance() asks a lazy value (the request's user) its class, which loads it
    if issubclass(type(value), FilterSet | LocalGraph):
        # a list's filter, or a neighbourhood's choices, are a form too
        return _rejected(value.form)  # type: ignore[attr-defined]  # both hold the form they validate
    if not issubclass(type(value), BaseForm | BaseFormSet):
        return False
    assert isinstance(value, BaseForm | BaseFormSet)
    return value.is_bound and not value.is_valid()


@register.simple_tag(takes_context=True)
def error_title_prefix(context: Context) -> str:
    """“Error: ” when the page shows a form sent back with errors, for the start of the document's title: the
    first thing a screen reader says of the page that came back."""
    return gettext("Error: ") if any(_rejected(value) for value in context.flatten().values()) else ""


@register.filter
def marked_invalid(field: BoundField, described_by: str) -> SafeString:
    """The field's widget marked invalid by an error that is the form's rather than its own (a wrong username or
    password is the pair's), described by the element that says it."""
    return field.as_widget(attrs={"aria-invalid": "true", "aria-describedby": described_by})
