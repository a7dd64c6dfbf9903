"""The names of fields as the wiki's forms and history show them (``wiki.field_labels``), for the models' verbose
names: one translation of each, wherever it is shown."""

from __future__ import annotations

from typing import cast

from django_stubs_ext import StrOrPromise

from wiki.field_labels import FIELD_LABELS


def field_label(name: str) -> StrOrPromise:
    return cast(StrOrPromise, FIELD_LABELS[name])
