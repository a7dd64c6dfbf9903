"""Stored sort keys of names (``wiki.text.sort_keys``): each sortable name has a :class:`SortKeyField` beside it,
which lists order by; a name searches look up whole has a :class:`NameFormField` beside it, derived the same way.

The key is derived from its name whenever the row is written, however it is written: ``save()`` (and ``create``,
``update_or_create``) and ``bulk_create`` through the field's ``pre_save``; a save of some fields only
(``update_fields``, or an instance read with some fields deferred) through :class:`SortKeyed`; ``bulk_update`` and
``update`` through :class:`SortKeyedQuerySet`. Only rows inserted as they were (``raw``: a restored backup) are given
their keys by :func:`fill_sort_keys`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from django.core.exceptions import FieldDoesNotExist
from django.db import models

from wiki.text.sort_keys import sort_key

_M = TypeVar("_M", bound=models.Model)


class SortKeyField(models.TextField):  # type: ignore[type-arg]
    """The key the field ``source`` (a name) sorts by, compared byte by byte; never edited."""

    description = "Sort key of a name"

    def __init__(self, *args: Any, source: str, **kwargs: Any) -> None:
        self.source = source
        kwargs.setdefault("editable", False)
        kwargs.setdefault("default", "")
        # The key is made to sort byte by byte; a linguistic collation would skip its spaces and separator.
        kwargs.setdefault("db_collation", "C")
        super().__init__(*args, **kwargs)

    def deconstruct(self) -> Any:
        name, path, args, kwargs = super().deconstruct()
        return name, path, args, {**kwargs, "source": self.source}

    # Lists order by it (:func:`key_path`); a derived key that is only looked up says False.
    orders = True

    def derive(self, name: str) -> str:
        return sort_key(name)

    def key_of(self, instance: models.Model) -> str:
        return self.derive(getattr(instance, self.source) or "")

    def pre_save(self, model_instance: models.Model, add: bool) -> str:
        key = self.key_of(model_instance)
        setattr(model_instance, self.attname, key)
        return key


class NameFormField(SortKeyField):
    """The form searches compare the name ``source`` in (:func:`wiki.search.terms.match_form`: its tokens, lower case,
    one space apart), stored and indexed so that a search finds the works and pages named as it by one look-up
    instead of folding every name after each write; kept as the sort keys are."""

    description = "Search form of a name"
    orders = False

    def derive(self, name: str) -> str:
        from wiki.search.terms import match_form  # the search package reads the models

        return match_form(name)


def sort_key_fields(model: type[models.Model]) -> list[SortKeyField]:
    return [field for field in model._meta.concrete_fields if isinstance(field, SortKeyField)]


def key_path(model: type[models.Model], path: str) -> str | None:
    """Where the sort key of the name at ``path`` is (``page__title`` → ``page__title_sort``; a key's own path is
    itself), None when ``path`` leads to no sorted name."""
    *relations, name = path.split("__")
    for relation in relations:
        try:
            field = model._meta.get_field(relation)
        except FieldDoesNotExist:
            return None
        if not isinstance(field.related_model, type):
            return None
        model = field.related_model
    for key in sort_key_fields(model):
        if key.orders and name in (key.source, key.name):
            return "__".join([*relations, key.name])
    return None


def fill_sort_keys(instance: models.Model) -> None:
    """Sets every sort key of ``instance`` from its names, for a row written without ``pre_save``."""
    for field in sort_key_fields(type(instance)):
        field.pre_save(instance, add=False)


def _with_keys(model: type[models.Model], fields: Iterable[str]) -> list[str]:
    """``fields`` and the sort key of each name among them."""
    written = list(fields)
    return [*written, *(key.name for key in sort_key_fields(model) if key.source in written and key.name not in written)]


class SortKeyed(models.Model):
    """A model with a :class:`SortKeyField`: a save of some fields writes the keys of the names among them."""

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        written = kwargs.get("update_fields")
        deferred = self.get_deferred_fields()
        if written is None and deferred and not self._state.adding:
            # Django writes only the fields that were read; a name read without its key is written with it.
            keys = [key for key in sort_key_fields(type(self)) if key.attname in deferred and key.source not in deferred]
            if keys:
                written = [f.attname for f in self._meta.concrete_fields if not f.primary_key and f.attname not in deferred]
        if written is not None:
            kwargs["update_fields"] = _with_keys(type(self), written)
        super().save(*args, **kwargs)


class SortKeyedQuerySet(models.QuerySet[_M]):
    """Writes of many rows that keep their sort keys: ``bulk_update`` of a name writes its key too, and so does
    ``update`` of a name to a text (an expression, which Python cannot read, is refused)."""

    def bulk_update(self, objs: Iterable[_M], fields: Iterable[str], batch_size: int | None = None) -> int:
        objs, fields = list(objs), list(fields)
        keys = [key for key in sort_key_fields(self.model) if key.source in fields]
        for instance in objs:
            for key in keys:
                key.pre_save(instance, add=False)
        return super().bulk_update(objs, _with_keys(self.model, fields), batch_size=batch_size)

    def update(self, **kwargs: Any) -> int:
        for key in sort_key_fields(self.model):
            if key.source in kwargs and key.name not in kwargs:
                value = kwargs[key.source]
                if not isinstance(value, str):
                    raise TypeError(f"{self.model.__name__}.{key.source} is sorted by a key Python derives: "
                                    f"update it to a text, not {type(value).__name__}")
                kwargs[key.name] = key.derive(value)
        return super().update(**kwargs)
