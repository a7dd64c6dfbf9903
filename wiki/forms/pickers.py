"""Fields that choose works by typing them: a text input that costs the same whatever the number of works in the wiki.

A work is typed as its slug or its short name (case, width, spacing and punctuation aside); several are separated by
commas (，and 、 too). Without JavaScript the input is a plain text field; editor.js offers matching works from the API's list of
sources as the editor types (``data-picker``); a page is typed as its slug, a wiki link to it or its title, offered
from the API's list of pages.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from wiki.models import Page, Source
from wiki.models.pages import PageQuerySet
from wiki.models.rules import is_control_free
from wiki.references.identifiers import short_name_key
from wiki.text.lists import joined, split_list


def _key(name: str) -> str:
    return name.strip().lower()


def one_page_named(typed: str, among: PageQuerySet | None = None) -> Page | None:
    """The page of ``among`` (the live pages by default) that ``typed`` names (``PageQuerySet.named``), None when
    none does; refused when its title is several pages'."""
    pages = (Page.objects.all() if among is None else among).named(typed)
    if len(pages) > 1:
        raise ValidationError(_("More than one page is titled “%(page)s”: type the slug of the one you mean."),
                              code="ambiguous", params={"page": typed})
    return pages[0] if pages else None


def works_named(names: Iterable[str], *, pks: Iterable[int] = ()) -> dict[str, list[Source]]:
    """The live works each of ``names`` designates, keyed by the name lowered: the work whose slug it is (either case)
    alone, else every work whose short name it is once case, width, spacing and punctuation are folded
    (:func:`short_name_key`: ``tree grpo`` is Tree-GRPO), else none. ``pks`` are looked up in the same query, keyed by
    their decimal text. One query, none when there is nothing to look up."""
    # No work is named with a control character, and PostgreSQL refuses to compare a text holding NUL.
    keys = {_key(name) for name in names if name.strip() and is_control_free(name)}
    wanted = {int(pk) for pk in pks}
    if not keys and not wanted:
        return {}
    folded = {key: short_name_key(key) for key in keys}
    condition = Q(slug__in=keys) | Q(name_key__in=set(folded.values())) | Q(pk__in=wanted)
    by_slug: dict[str, Source] = {}
    by_name: dict[str, list[Source]] = {}
    found: dict[str, list[Source]] = {}
    for work in Source.objects.filter(condition).order_by("slug"):
        by_slug[work.slug] = work
        by_name.setdefault(work.name_key, []).append(work)
        if work.pk in wanted:
            found[str(work.pk)] = [work]
    # A slug names one work, even when another work's short name is spelt the same.
    for key in keys:
        named = [by_slug[key]] if key in by_slug else by_name.get(folded[key], [])
        if named or key not in found:
            found[key] = named
    return found


def _quoted(names: Sequence[str]) -> str:
    """“A”, “B” in English, “A”、“B” in Chinese."""
    return joined(f"“{name}”" for name in names)


class PickerInput(forms.TextInput):
    """A text input for a slug (``multiple``: several, separated by commas), pointing editor.js at the API list
    (``search``, a URL name) to offer matching rows from as the editor types."""

    def __init__(self, attrs: dict[str, Any] | None = None, *, multiple: bool = False, search: str = "api:source-list") -> None:
        base = {"data-picker": "multiple" if multiple else "one", "autocomplete": "off", "spellcheck": "false",
                "autocapitalize": "none", "size": 60 if multiple else 40}
        super().__init__({**base, **(attrs or {})})
        self.search = search

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        context["widget"]["attrs"]["data-picker-search"] = reverse(self.search)
        return context


class WorkChoiceField(forms.Field):
    """One live work, typed as its slug or short name; cleans to the :class:`Source`, or None when left blank."""

    widget = PickerInput
    default_error_messages = {
        "unknown": _("No work has the slug or short name %(names)s."),
        "ambiguous": _("Several works are called %(names)s; type the slug of the one you mean (%(slugs)s)."),
    }

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", _("A work's slug or its short name."))
        super().__init__(**kwargs)
        # Works already looked up for this form (a formset resolves all its rows' names in one query).
        self.known: Mapping[str, list[Source]] | None = None

    def names(self, value: Any) -> list[str]:
        """The names typed in ``value``."""
        text = str(value or "").strip()
        return [text] if text else []

    def resolve(self, names: list[str]) -> list[Source]:
        """The works ``names`` designate, in the order typed and each once; a name that designates no work, or several,
        is a validation error quoting it."""
        known = self.known if self.known is not None and all(_key(name) in self.known for name in names) else works_named(names)
        unknown = [name for name in names if not known.get(_key(name))]
        if unknown:
            raise forms.ValidationError(self.error_messages["unknown"], code="unknown", params={"names": _quoted(unknown)})
        works: list[Source] = []
        for name in names:
            matches = known[_key(name)]
            if len(matches) > 1:
                raise forms.ValidationError(self.error_messages["ambiguous"], code="ambiguous",
                                            params={"names": _quoted([name]),
                                                    "slugs": joined(w.slug for w in matches)})
            if matches[0] not in works:
                works.append(matches[0])
        return works

    def to_python(self, value: Any) -> Source | None:
        names = self.names(value)
        return self.resolve(names)[0] if names else None

    def prepare_value(self, value: Any) -> Any:
        """A work shows as its slug; typed text as typed. A work known to be deleted shows as nothing (it cannot be
        chosen again)."""
        if isinstance(value, Source):
            return "" if value.__dict__.get("deleted_at") is not None else value.slug
        if isinstance(value, int):
            work = Source.objects.filter(pk=value).only("slug").first()
            return work.slug if work else ""
        return value

    def has_changed(self, initial: Any, data: Any) -> bool:
        shown = self.prepare_value(initial)
        return _key(str(shown or "")) != _key(str(data or ""))


class WorkMultipleChoiceField(WorkChoiceField):
    """Several live works, typed as slugs or short names separated by commas; cleans to a list of :class:`Source`."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", _("Works' slugs or short names, separated by commas."))
        kwargs.setdefault("widget", PickerInput(multiple=True))
        super().__init__(**kwargs)

    def names(self, value: Any) -> list[str]:
        parts = value if isinstance(value, (list, tuple)) else [value]
        return [name for part in parts for name in split_list(str(part or ""))]

    def to_python(self, value: Any) -> list[Source]:  # type: ignore[override]
        names = self.names(value)
        return self.resolve(names) if names else []

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, str) or value is None:
            return value
        if isinstance(value, Source):
            value = [value]
        values = list(value)
        if values and all(isinstance(item, int) for item in values):
            slugs = dict(Source.objects.filter(pk__in=values).values_list("pk", "slug"))
            return ", ".join(slugs[pk] for pk in values if pk in slugs)
        shown = (super(WorkMultipleChoiceField, self).prepare_value(item) for item in values)
        return ", ".join(str(text) for text in shown if text)

    def has_changed(self, initial: Any, data: Any) -> bool:
        return [_key(n) for n in self.names(self.prepare_value(initial))] != [_key(n) for n in self.names(data)]


class PageSlugField(forms.ModelChoiceField):  # type: ignore[type-arg]
    """A page of ``queryset`` (a ``PageQuerySet``) typed as its slug, a wiki link to it or its title
    (``PageQuerySet.named``), not chosen from a list of every page; shows the slug of the initial page, given as the
    page or its id."""

    default_error_messages = {"invalid_choice": _("No page has the slug or title “%(value)s”.")}

    def __init__(self, queryset: Any, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", _("The page's slug, as in its address (/wiki/<slug>/), or its title."))
        kwargs.setdefault("widget", PickerInput(search="api:page-list"))
        super().__init__(queryset, to_field_name="slug", **kwargs)

    def to_python(self, value: Any) -> Page | None:
        if value in self.empty_values:
            return None
        typed = str(value).strip()
        page = one_page_named(typed, cast("PageQuerySet", self.queryset))
        if page is None:
            raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice", params={"value": typed})
        return page

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, int) and self.queryset is not None:  # a page's id, as a model form's initial data holds it
            return self.queryset.filter(pk=value).values_list("slug", flat=True).first() or ""
        return super().prepare_value(value)
