"""Pages and their revisions."""

from __future__ import annotations

from django.contrib import admin
from django.db import models
from django.http import HttpRequest
from django.urls import reverse

from wiki.admin.base import (
    DeletedInTheWikiAdmin,
    EditedInTheWikiAdmin,
    NamesSortedAdmin,
    ReadOnlyAdmin,
    ReadOnlyInline,
    without_text,
)
from wiki.models import Page, Revision


class RevisionInline(ReadOnlyInline):
    model = Revision
    fields = ("number", "title", "comment", "author", "size", "size_delta", "minor", "created_at")
    readonly_fields = fields
    ordering = ("-number",)

    def get_queryset(self, request: HttpRequest) -> models.QuerySet[Revision]:
        return super().get_queryset(request).defer("body")


@admin.register(Page)
class PageAdmin(NamesSortedAdmin, EditedInTheWikiAdmin, DeletedInTheWikiAdmin):
    list_display = ("title", "slug", "updated_at", "created_at", "deleted_at")
    search_fields = ("title", "slug", "summary")
    date_hierarchy = "updated_at"
    readonly_fields = ("edit_in_wiki", "delete_in_wiki")
    inlines = [RevisionInline]
    delete_view_name = "wiki:page-delete"

    def wiki_edit_url(self, obj: Page) -> str:  # type: ignore[override]
        return reverse("wiki:page-edit", kwargs={"slug": obj.slug})


@admin.register(Revision)
class RevisionAdmin(ReadOnlyAdmin):
    """Read-only: revisions are written by page saves only, so that the page, its claims and links stay in step."""

    list_display = ("page", "number", "author", "comment", "size_delta", "minor", "created_at")
    list_filter = ("created_at", "minor")
    search_fields = ("page__title", "page__slug", "comment")
    list_select_related = ("page", "author")

    def get_queryset(self, request: HttpRequest) -> models.QuerySet[Revision]:
        return without_text(super().get_queryset(request), "page").defer("body")
