"""Components: parts of a work classified apart (Shepherd's Tree-GRPO and its supervisor), added as an editor
classifies one."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from wiki.models import Component, Source
from wiki.models.rules import max_length
from wiki.references.identifiers import short_name_key
from wiki.text.slugs import ascii_slugify, cut_slug, numbered_slug, pinyin_slug


def component_slug(name: str, *, taken: set[str]) -> str:
    """A slug for a new component named ``name``, not among ``taken`` (its work's components' slugs): the name's ASCII
    letters and digits, a Chinese name's pinyin (``监督器`` → ``jian-du-qi``), ``part`` when neither gives one,
    numbered from 2 when taken."""
    length = max_length(Component, "slug") - 4
    base = cut_slug(ascii_slugify(name), length) or pinyin_slug(name, length=length) or "part"
    return numbered_slug(base, taken)


def component_create(*, source: Source, name: str) -> Component:
    """Adds a component called ``name`` to ``source``. Refuses, with a ``ValidationError`` naming it, a name one of
    the work's components has already once case, width, spacing and punctuation are folded."""
    name = name.strip()
    key = short_name_key(name)
    existing = list(source.components.only("id", "name", "slug"))
    same = next((c for c in existing if short_name_key(c.name) == key), None)
    if same is not None:
        raise ValidationError(_("%(work)s has a component called “%(name)s” already: choose it instead."),
                              code="component_exists", params={"work": source.short_name, "name": same.name})
    slug = component_slug(name, taken={c.slug for c in existing})
    component = Component(source=source, name=name, slug=slug)
    component.full_clean()
    component.save()
    return component
