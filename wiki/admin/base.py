"""What the wiki's admin classes share: read-only tables, and rows edited or deleted in the wiki instead."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.views.main import ChangeList
from django.db import models
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from wiki.models import Page, Source
from wiki.models.sort_keys import key_path

# A page's text and HTML, which a row joined with its page never shows: a changelist of 100 rows would read them all.
PAGE_TEXT = ("body", "rendered_html", "toc")


def without_text(queryset: models.QuerySet[Any], *pages: str) -> models.QuerySet[Any]:
    """``queryset`` with the pages reached through ``pages`` (field paths) joined, without their text."""
    return queryset.select_related(*pages).defer(*(f"{page}__{field}" for page in pages for field in PAGE_TEXT))


class _NamesSortedChangeList(ChangeList):
    def get_ordering_field(self, field_name: Any) -> Any:
        found = super().get_ordering_field(field_name)
        return (key_path(self.model, found) or found) if isinstance(found, str) else found


class NamesSortedAdmin(admin.ModelAdmin):
    """A column of names (a title, a short name) sorts as the wiki's lists do, by its sort key
    (``wiki.text.sort_keys``: a Chinese name by its pinyin, among the Latin ones)."""

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return _NamesSortedChangeList


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown, never added, changed or deleted here: the wiki writes these rows itself."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class EditedInTheWikiAdmin(ReadOnlyAdmin):
    """View-only: saving here would skip the service (revisions, re-rendering, claims and links, history, change
    events, search index), so the change page links to the wiki's own form instead."""

    def wiki_edit_url(self, obj: models.Model) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    @admin.display(description=_("Edit"))
    def edit_in_wiki(self, obj: models.Model) -> str:
        return format_html('<a href="{}">{}</a>', self.wiki_edit_url(obj), gettext("Edit in the wiki")) if obj.pk else ""


class DeletedInTheWikiAdmin(admin.ModelAdmin):
    """Not deleted here: the admin would remove the row and all that hangs on it, where the wiki's deletion keeps
    it with who deleted it, when and why, answers its address with 410, drops it from search, records the change
    and can restore it. The change page links to the wiki's deletion form, which asks for the reason."""

    delete_view_name = ""

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.display(description=_("Delete"))
    def delete_in_wiki(self, obj: Page | Source) -> str:
        if not obj.pk:
            return ""
        if obj.is_deleted:
            return format_html('<a href="{}">{}</a>', reverse("wiki:deleted-list"),
                               gettext("Deleted: restore it from the wiki's list of deleted pages and works"))
        return format_html('<a href="{}">{}</a>', reverse(self.delete_view_name, kwargs={"slug": obj.slug}),
                           gettext("Delete in the wiki (with a reason; it can be restored)"))
