"""Every stored sort key made again from its name (``wiki.text.sort_keys``): a key is derived whenever its row is
written, but a later pypinyin (or a later folding of text, which search shares) may read a name otherwise, and then
the rows written before it keep the old key and sort where the new one would not put them.

The names are read a batch at a time, without a lock; a row whose key is stale is read again under a lock, in a
transaction of its own batch, and only its keys are written (a name changed meanwhile is keyed as it is then). A row
whose keys are right is never written, so a run that finds nothing changes nothing, the cache's version included.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.apps import apps
from django.db import models, transaction

from wiki.models.sort_keys import SortKeyField, sort_key_fields

REKEY_BATCH = 2000


@dataclass(frozen=True)
class Rekeyed:
    """Of one model: how many rows were read, and how many had a stale key (written unless only checked)."""

    model: str
    rows: int
    stale: int


def sort_keyed_models() -> list[type[models.Model]]:
    """The wiki's models with a stored sort key, in the order they are defined."""
    return [model for model in apps.get_app_config("wiki").get_models() if sort_key_fields(model)]


def sort_keys_rekey(*, check: bool = False, batch_size: int = REKEY_BATCH) -> list[Rekeyed]:
    """Makes every stored sort key again from its name and writes those that changed, each model's rows a batch at a
    time (deleted ones too: restored, they are listed again); with ``check``, writes nothing and only counts them."""
    return [_rekey(model, check=check, batch_size=batch_size) for model in sort_keyed_models()]


def _rekey(model: type[models.Model], *, check: bool, batch_size: int) -> Rekeyed:
    keys = sort_key_fields(model)
    fields = [*dict.fromkeys(key.source for key in keys), *(key.attname for key in keys)]
    rows = model._base_manager.only(*fields).order_by("pk")
    read = stale = 0
    last = None
    while batch := list((rows if last is None else rows.filter(pk__gt=last))[:batch_size]):
        last = batch[-1].pk
        read += len(batch)
        found = _stale(batch, keys)
        if found and not check:
            found = _write(model, keys, [row.pk for row in found], fields)
        stale += len(found)
    return Rekeyed(model._meta.object_name or model.__name__, read, stale)


def _stale(rows: Iterable[models.Model], keys: list[SortKeyField]) -> list[models.Model]:
    """The rows whose stored keys are not their names' keys, given the right ones."""
    found = []
    for row in rows:
        wrong = False
        for key in keys:
            if getattr(row, key.attname) != (right := key.key_of(row)):
                setattr(row, key.attname, right)
                wrong = True
        if wrong:
            found.append(row)
    return found


@transaction.atomic
def _write(
    model: type[models.Model], keys: list[SortKeyField], pks: list[object], fields: list[str]
) -> list[models.Model]:
    """Writes the keys of the rows ``pks`` that are still stale, read again under a lock; returns those written."""
    locked = model._base_manager.select_for_update().only(*fields).filter(pk__in=pks).order_by("pk")
    found = _stale(locked, keys)
    if found:
        model._base_manager.bulk_update(found, [key.attname for key in keys])
    return found
