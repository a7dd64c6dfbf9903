"""How every form renders: the values it gives back to correct are shown without control characters."""

from __future__ import annotations

from typing import Any

from django.forms.boundfield import BoundField
from django.forms.renderers import DjangoTemplates

from wiki.models.rules import strip_control


def without_controls(value: Any) -> Any:
    """``value`` with its control characters left out when it is text (a list of texts, each so): a NUL or an escape
    typed into a filter is refused, and sent back in the field it would be written into the page's HTML as it came.
    Tab and the line breaks a text area keeps stay."""
    if isinstance(value, str):
        return strip_control(value)
    if isinstance(value, list | tuple):
        return type(value)(without_controls(item) for item in value)
    return value


class EchoedBoundField(BoundField):
    """A field whose value, given back in its widget or read by a template, holds no control character."""

    def value(self) -> Any:
        return without_controls(super().value())


class FormRenderer(DjangoTemplates):
    """Django's renderer, each form's fields bound as :class:`EchoedBoundField`."""

    bound_field_class = EchoedBoundField
