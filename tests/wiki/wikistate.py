"""The comparable state of the wiki's database as plain data: every row of every table a backup restores, field by
field (many-to-many links as sorted ids), the accounts, and what is derived from them (rendered HTML, links, the
search index)."""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.contrib.auth.models import Group

from wiki.models import ApiToken, SearchDocument
from wiki.roles import Account

_SEARCH_FIELDS = ("kind", "object_id", "title", "body", "url", "mechanisms", "verdicts", "importance")


def _rows(model: Any) -> list[dict[str, Any]]:
    concrete = [f.attname for f in model._meta.concrete_fields]
    many = [f.name for f in model._meta.many_to_many]
    rows = []
    for obj in model._base_manager.order_by("pk").prefetch_related(*many):
        row = {name: getattr(obj, name) for name in concrete}
        for name in many:
            row[name] = sorted(getattr(obj, name).values_list("pk", flat=True))
        rows.append(row)
    return rows


def wiki_state() -> dict[str, Any]:
    state: dict[str, Any] = {}
    for model in apps.get_app_config("wiki").get_models():
        if model not in (SearchDocument, ApiToken):  # the index is compared below; tokens are in no backup
            state[model._meta.label_lower] = _rows(model)
    state["search"] = list(SearchDocument.objects.order_by("kind", "object_id").values_list(*_SEARCH_FIELDS))
    state["users"] = [
        {**{k: v for k, v in row.items() if k != "password"}, "groups": sorted(Group.objects.filter(user=row["id"]).values_list("name", flat=True))}
        for row in _rows(Account)
    ]
    return state
