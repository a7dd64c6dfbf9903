"""Adding and changing glossary terms, and loading the wiki's own glossary.

No name may belong to two terms: the check runs under a lock on the glossary, so two editors adding the same
alias at once cannot both succeed. Pages whose wiki links name a changed term are rendered again, so that such
a link leads to the term's entry (or stops leading to it) at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils.translation import gettext_lazy as _

from wiki.models import ChangeEvent, GlossaryTerm, Page
from wiki.models.glossary import name_key
from wiki.models.rules import max_length
from wiki.roles import User
from wiki.services.changes import change_record, check_not_stale
from wiki.services.pages import pages_rerender
from wiki.text.slugs import ascii_slugify, cut_slug, numbered_slug, pinyin_slug

NAME_FIELDS = ("name_zh", "name_en", "aliases_zh", "aliases_en")


def _lock_glossary() -> None:
    # Conflicts with itself and with every other write to the table: checks and saves of names run one at a time.
    with connection.cursor() as cursor:
        cursor.execute("LOCK TABLE wiki_glossaryterm IN SHARE ROW EXCLUSIVE MODE")


def _clean_aliases(values: Iterable[str]) -> list[str]:
    found: dict[str, str] = {}
    for value in values:
        if value.strip():
            found.setdefault(name_key(value), value.strip())
    return list(found.values())


def glossary_slug(*, name_en: str, name_zh: str) -> str:
    """An address for a new term that has none typed: its English name's (``credit-assignment``), else its Chinese
    name's in pinyin (``xin-yong-fen-pei``), numbered from 2 when a term has it; empty when neither gives one."""
    length = max_length(GlossaryTerm, "slug") - 4
    base = cut_slug(ascii_slugify(name_en), length) or pinyin_slug(name_zh, length=length)
    if not base:
        return ""
    # slugify and pinyin_slug leave only [a-z0-9-], none of them special in a regular expression.
    taken = set(GlossaryTerm.objects.filter(slug__regex=rf"^{base}(-[0-9]+)?$").values_list("slug", flat=True))
    return numbered_slug(base, taken)


def glossary_check_names(term: GlossaryTerm) -> None:
    """Raises ``ValidationError`` on the field of each name another term already has (``term`` need not be saved)."""
    others = list(GlossaryTerm.objects.sharing_names(term.names).exclude(pk=term.pk).only("slug", "name_zh", "name_en", "name_keys"))
    if not others:
        return
    owner = {key: other for other in others for key in other.name_keys}
    errors: dict[str, list[ValidationError]] = {}
    for field in NAME_FIELDS:
        value = getattr(term, field)
        for name in value if isinstance(value, list) else [value]:
            other = owner.get(name_key(name))
            if other is not None:
                errors.setdefault(field, []).append(ValidationError(
                    _("“%(name)s” is already a name of “%(term)s”; a name belongs to one term."),
                    code="name_taken", params={"name": name, "term": str(other)},
                ))
    raise ValidationError(errors)


def _apply(term: GlossaryTerm, fields: Mapping[str, Any]) -> None:
    for name, value in fields.items():
        setattr(term, name, _clean_aliases(value) if name in ("aliases_zh", "aliases_en") else value)
    term.derive_keys()
    term.full_clean()
    glossary_check_names(term)


def _rerender_linking(keys: Iterable[str]) -> None:
    pages_rerender(pages=Page.objects.filter(outgoing_links__target_slug__in=set(keys)).distinct())


@transaction.atomic
def glossary_term_create(*, fields: Mapping[str, Any], user: User | None = None) -> GlossaryTerm:
    _lock_glossary()
    term = GlossaryTerm()
    _apply(term, fields)
    term.save()
    change_record(kind=ChangeEvent.Kind.GLOSSARY, action=ChangeEvent.Action.CREATED, obj=term, label=str(term),
                  url=term.get_absolute_url(), user=user)
    _rerender_linking(term.link_keys)
    return term


@transaction.atomic
def glossary_term_update(
    *, term: GlossaryTerm, fields: Mapping[str, Any], user: User | None = None, loaded_at: datetime | None = None
) -> GlossaryTerm:
    """``loaded_at`` is the term's ``updated_at`` when the editor opened the form; a save since raises
    :class:`~wiki.services.changes.StaleEdit` and nothing is written."""
    _lock_glossary()
    term = GlossaryTerm.objects.get(pk=term.pk)
    check_not_stale(term, loaded_at=loaded_at)
    keys_before = set(term.link_keys)
    _apply(term, fields)
    term.save()
    change_record(kind=ChangeEvent.Kind.GLOSSARY, action=ChangeEvent.Action.EDITED, obj=term, label=str(term),
                  url=term.get_absolute_url(), user=user)
    _rerender_linking(keys_before | set(term.link_keys))
    return term


@transaction.atomic
def glossary_term_delete(*, term: GlossaryTerm, user: User | None = None) -> None:
    """Removes the term; wiki links that led to its entry are shown as wanted again."""
    _lock_glossary()
    keys, label, pk = set(term.link_keys), str(term), term.pk
    term.delete()
    change_record(kind=ChangeEvent.Kind.GLOSSARY, action=ChangeEvent.Action.DELETED, obj=GlossaryTerm(pk=pk), label=label,
                  url="", user=user)
    _rerender_linking(keys)


@transaction.atomic
def glossary_load(*, rows: list[dict[str, Any]]) -> int:
    """Creates or updates the terms of ``rows`` (matched on slug) with the same checks as the form; a term whose
    fields did not change is not written. Returns how many were written. ``page`` is a page slug."""
    _lock_glossary()
    existing = {t.slug: t for t in GlossaryTerm.objects.all()}
    pages = dict(Page.objects.filter(slug__in={r["page"] for r in rows if r.get("page")}).values_list("slug", "id"))
    written: list[GlossaryTerm] = []
    for row in rows:
        term = existing.get(row["slug"]) or GlossaryTerm(slug=row["slug"])
        fields: dict[str, Any] = {
            "name_zh": row["zh"], "name_en": row["en"],
            "aliases_zh": row.get("aliases_zh") or [], "aliases_en": row.get("aliases_en") or [],
            "definition_zh": row.get("definition_zh") or "", "definition_en": row.get("definition_en") or "",
            "mechanism": row.get("mechanism") or "", "verdict": row.get("verdict") or "", "fact": row.get("fact") or "",
            "page_id": pages.get(row.get("page") or ""),
        }
        before = {name: getattr(term, name) for name in fields} if term.pk else None
        try:
            _apply(term, fields)
        except ValidationError as error:
            raise ValidationError(f"glossary term {row['slug']}: {'; '.join(error.messages)}") from None
        if before != {name: getattr(term, name) for name in fields}:
            term.save()
            written.append(term)
    _rerender_linking({key for term in written for key in term.link_keys})
    return len(written)
