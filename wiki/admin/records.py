"""What the wiki records or derives as it is written: changes, dismissals, merges, imports, links, former page
addresses, search documents, stored suggestions (all read-only but the dismissals)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db import models
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from wiki.admin.base import ReadOnlyAdmin, without_text
from wiki.models import (
    ChangeEvent,
    FindingDismissal,
    PageRedirect,
    SearchDocument,
    SourceImport,
    SourceMerge,
    StoredSuggestion,
    WikiLink,
)
from wiki.models.classifications import MECHANISM_CHOICES
from wiki.models.labels import field_label
from wiki.reports.consistency import FINDING_KINDS


@admin.register(ChangeEvent)
class ChangeEventAdmin(ReadOnlyAdmin):
    """Read-only: the recent-changes feed is what the services recorded, as they recorded it."""

    list_display = ("created_at", "kind", "action", "label", "user", "size_delta")
    list_filter = ("kind", "action", "created_at")
    search_fields = ("label", "summary")
    list_select_related = ("user",)


class FindingKindFilter(admin.SimpleListFilter):
    """The kinds of finding by the consistency report's names for its sections."""

    title = field_label("kind")
    parameter_name = "kind"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin[Any]) -> tuple[tuple[str, StrOrPromise], ...]:
        return FINDING_KINDS

    def queryset(self, request: HttpRequest, queryset: QuerySet[FindingDismissal]) -> QuerySet[FindingDismissal]:
        return queryset.filter(kind=self.value()) if self.value() else queryset


@admin.register(FindingDismissal)
class FindingDismissalAdmin(admin.ModelAdmin):
    """A kind is shown and chosen by its section's name in the consistency report."""

    list_display = ("subject", "kind_name", "key", "dismissed_by", "dismissed_at", "reopened_at")
    list_filter = (FindingKindFilter, "reopened_at")
    search_fields = ("subject", "reason")
    list_select_related = ("dismissed_by",)
    raw_id_fields = ("dismissed_by", "reopened_by")

    @admin.display(description=field_label("kind"), ordering="kind")
    def kind_name(self, obj: FindingDismissal) -> StrOrPromise:
        return obj.kind_label

    def formfield_for_dbfield(self, db_field: models.Field[Any, Any], request: HttpRequest, **kwargs: Any) -> forms.Field | None:
        if db_field.name == "kind":
            kwargs["widget"] = forms.Select(choices=FINDING_KINDS)
        return super().formfield_for_dbfield(db_field, request, **kwargs)


@admin.register(SourceMerge)
class SourceMergeAdmin(ReadOnlyAdmin):
    """Read-only: a merge is made and undone in the wiki, which moves the rows it records."""

    list_display = ("merged", "kept", "user", "created_at", "undone_at")
    list_select_related = ("merged", "kept", "user")
    search_fields = ("merged__short_name", "kept__short_name")


@admin.register(SourceImport)
class SourceImportAdmin(ReadOnlyAdmin):
    """Read-only: an import is made and undone in the wiki (/imports/), which deletes the works it records."""

    list_display = ("created_at", "user", "via", "format", "file_name", "entries", "created_count", "undone_at")
    list_filter = ("via", "format", "created_at")
    search_fields = ("file_name",)
    list_select_related = ("user",)


@admin.register(WikiLink)
class WikiLinkAdmin(ReadOnlyAdmin):
    """Read-only: links are derived from the page's text on every save, never typed."""

    list_display = ("source_page", "target_slug", "target_title", "label")
    search_fields = ("target_slug", "target_title", "source_page__title")
    list_select_related = ("source_page",)

    def get_queryset(self, request: HttpRequest) -> models.QuerySet[WikiLink]:
        return without_text(super().get_queryset(request), "source_page")


@admin.register(PageRedirect)
class PageRedirectAdmin(ReadOnlyAdmin):
    """Read-only: a page is moved in the wiki, which records the address it leaves."""

    list_display = ("slug", "page", "created_at")
    search_fields = ("slug", "page__title")
    list_select_related = ("page",)

    def get_queryset(self, request: HttpRequest) -> models.QuerySet[PageRedirect]:
        return without_text(super().get_queryset(request), "page")


class _MechanismFilter(admin.SimpleListFilter):
    """Works with a classification (their own or a component's) of the mechanism chosen."""

    title = _("mechanism")
    parameter_name = "mechanism"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin[SearchDocument]) -> list[tuple[str, str]]:
        return [(key, str(label)) for key, label in MECHANISM_CHOICES]

    def queryset(self, request: HttpRequest, queryset: models.QuerySet[SearchDocument]) -> models.QuerySet[SearchDocument]:
        return queryset.filter(mechanisms__contains=[self.value()]) if self.value() else queryset


@admin.register(SearchDocument)
class SearchDocumentAdmin(ReadOnlyAdmin):
    """Read-only: documents are rebuilt from their objects on every save."""

    list_display = ("title", "kind", "object_id", "mechanisms", "verdicts", "updated_at")
    list_filter = ("kind", _MechanismFilter)
    search_fields = ("title", "body")
    exclude = ("vector",)


@admin.register(StoredSuggestion)
class StoredSuggestionAdmin(ReadOnlyAdmin):
    """Read-only: a work's suggestion is classified again from its text whenever that text or the weights change."""

    list_display = ("source", "component", "mechanism", "verdict", "confidence", "weights_version", "refreshed_at")
    list_filter = ("mechanism", "verdict", "readable")
    list_select_related = ("source", "component")
    search_fields = ("source__short_name", "source__title")
    exclude = ("suggestion",)
