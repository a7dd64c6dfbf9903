"""Claims, their citations and history, classifications and contrasts."""

from __future__ import annotations

from django.contrib import admin
from django.db import models
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from wiki.admin.base import EditedInTheWikiAdmin, ReadOnlyAdmin, ReadOnlyInline, without_text
from wiki.models import Citation, Claim, ClaimRevision, Classification, ClassificationChange, Contrast


class CitationInline(ReadOnlyInline):
    model = Citation
    fields = ("source", "locator", "kind", "position")
    readonly_fields = fields


@admin.register(Claim)
class ClaimAdmin(EditedInTheWikiAdmin):
    """View-only: a claim is a sentence of its page, so its text changes with the page, and its status through the
    claim service, which keeps its history and the search index; the change page links to the wiki's claim form."""

    list_display = ("__str__", "page", "section", "status", "is_orphaned", "retired_at", "updated_at")
    # No filter by page: it would list every page of the wiki; a search finds a page's claims by its title or slug.
    list_filter = ("status", "is_orphaned")
    search_fields = ("text", "section", "anchor", "page__title", "page__slug")
    list_select_related = ("page",)
    readonly_fields = ("edit_in_wiki",)
    inlines = [CitationInline]

    def get_queryset(self, request: HttpRequest) -> models.QuerySet[Claim]:
        return without_text(super().get_queryset(request), "page")

    def wiki_edit_url(self, obj: Claim) -> str:  # type: ignore[override]
        return reverse("wiki:claim-edit", kwargs={"pk": obj.pk})


@admin.register(ClaimRevision)
class ClaimRevisionAdmin(ReadOnlyAdmin):
    """A claim's history is written by page saves and editors' decisions: read here, never changed."""

    list_display = ("claim", "kind", "status", "page_revision", "user", "created_at")
    list_filter = ("kind", "status")
    search_fields = ("text", "reason")
    list_select_related = ("claim", "page_revision", "user")

    def get_queryset(self, request: HttpRequest) -> models.QuerySet[ClaimRevision]:
        return super().get_queryset(request).select_related("page_revision").defer("page_revision__body")


@admin.register(Citation)
class CitationAdmin(ReadOnlyAdmin):
    """Read-only: citations are parsed from the page's text on every save, which would undo a change made here."""

    list_display = ("source", "locator", "kind", "claim")
    list_filter = ("kind",)
    search_fields = ("locator", "source__short_name", "claim__text")
    list_select_related = ("source", "claim")


@admin.register(Classification)
class ClassificationAdmin(EditedInTheWikiAdmin):
    list_display = ("subject", "mechanism", "algorithm", "verdict", "set_by", "updated_at")
    list_filter = ("verdict", "mechanism", "set_by", "narrow")
    search_fields = ("source__short_name", "source__title", "component__name", "algorithm", "rationale")
    list_select_related = ("source", "component")
    readonly_fields = ("edit_in_wiki", "updated_at")

    @admin.display(description=_("Work or component"), ordering="source__short_name")
    def subject(self, obj: Classification) -> str:
        return obj.subject_name

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        # The wiki has no way to remove a classification; a wrong one can still be removed here.
        return admin.ModelAdmin.has_delete_permission(self, request, obj)

    def wiki_edit_url(self, obj: Classification) -> str:  # type: ignore[override]
        return reverse("wiki:classification-edit", kwargs={"pk": obj.pk})


@admin.register(ClassificationChange)
class ClassificationChangeAdmin(ReadOnlyAdmin):
    """Read-only: the history of a classification, written by the classification service on every save."""

    list_display = ("classification", "user", "created_at")
    list_filter = ("created_at",)
    search_fields = ("classification__source__short_name",)
    list_select_related = ("classification__source", "classification__component", "user")


@admin.register(Contrast)
class ContrastAdmin(ReadOnlyAdmin):
    """Read-only: a contrast is added with the wiki's form, through the contrast service, which refuses a pair set
    against each other already (either way round) or a component against its own work, marks the claim as about
    both works and records the change. A wrong one can be deleted here: no other row is derived from it, and the
    claim that stated it stays on its page."""

    list_display = ("left", "left_component", "right", "right_component", "axis")
    search_fields = ("axis", "left__short_name", "right__short_name")
    list_select_related = ("left", "left_component", "right", "right_component")

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return admin.ModelAdmin.has_delete_permission(self, request, obj)
