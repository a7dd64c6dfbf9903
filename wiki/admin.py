from __future__ import annotations

from django.contrib import admin
from django.db import models
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from wiki.forms.glossary import GLOSSARY_FIELDS, GlossaryTermForm
from wiki.models import (
    ChangeEvent,
    Citation,
    Claim,
    ClaimRevision,
    Classification,
    ClassificationChange,
    Component,
    Contrast,
    FindingDismissal,
    GlossaryTerm,
    OpenQuestion,
    Page,
    ReaderProfile,
    Revision,
    SearchDocument,
    Source,
    SourceMerge,
    WikiLink,
)
from wiki.models.glossary import ORDER as GLOSSARY_ORDER
from wiki.services.glossary import glossary_term_create, glossary_term_delete, glossary_term_update


class RevisionInline(admin.TabularInline):
    model = Revision
    fields = ("number", "title", "comment", "author", "size", "size_delta", "created_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True
    ordering = ("-number",)

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        # Revisions are written by page_save_revision only, so that claims and links stay in step.
        return False


class EditedInTheWikiAdmin(admin.ModelAdmin):
    """View-only: saving here would skip the service (revisions, re-rendering, claims and links, history, change
    events, search index), so the change page links to the wiki's own form instead. Deleting stays possible."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def wiki_edit_url(self, obj: models.Model) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    @admin.display(description=_("Edit"))
    def edit_in_wiki(self, obj: models.Model) -> str:
        return format_html('<a href="{}">{}</a>', self.wiki_edit_url(obj), gettext("Edit in the wiki")) if obj.pk else ""



class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown, never added, changed or deleted here: the wiki writes these rows itself."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Page)
class PageAdmin(EditedInTheWikiAdmin):
    list_display = ("title", "slug", "updated_at", "created_at", "deleted_at")
    search_fields = ("title", "slug", "summary")
    date_hierarchy = "updated_at"
    readonly_fields = ("edit_in_wiki",)
    inlines = [RevisionInline]

    def wiki_edit_url(self, obj: Page) -> str:  # type: ignore[override]
        return reverse("wiki:page-edit", kwargs={"slug": obj.slug})


@admin.register(Revision)
class RevisionAdmin(admin.ModelAdmin):
    list_display = ("page", "number", "author", "comment", "size_delta", "created_at")
    list_filter = ("created_at",)
    search_fields = ("page__title", "page__slug", "comment")
    list_select_related = ("page", "author")
    raw_id_fields = ("page", "author")


class ComponentInline(admin.TabularInline):
    model = Component
    fields = ("slug", "name")
    extra = 0


@admin.register(Source)
class SourceAdmin(admin.ModelAdmin):
    list_display = ("short_name", "title", "kind", "year", "arxiv_id", "doi", "deleted_at", "merged_into")
    list_filter = ("kind", "year")
    search_fields = ("short_name", "title", "authors", "arxiv_id", "doi", "bibtex_key")
    readonly_fields = ("normalized_title", "created_at", "updated_at")
    # A URL typed without a scheme is taken as https (Django 6's default, chosen now).
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}
    inlines = [ComponentInline]


@admin.register(Component)
class ComponentAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "source")
    search_fields = ("name", "slug", "source__short_name")
    list_select_related = ("source",)
    raw_id_fields = ("source",)


class CitationInline(admin.TabularInline):
    model = Citation
    fields = ("source", "locator", "kind", "position")
    raw_id_fields = ("source",)
    extra = 0


@admin.register(Claim)
class ClaimAdmin(admin.ModelAdmin):
    list_display = ("__str__", "page", "section", "status", "is_orphaned", "retired_at", "updated_at")
    list_filter = ("status", "is_orphaned", "page")
    search_fields = ("text", "section", "anchor")
    list_select_related = ("page",)
    raw_id_fields = ("page", "about")
    readonly_fields = ("key", "created_at", "updated_at")
    inlines = [CitationInline]


@admin.register(ClaimRevision)
class ClaimRevisionAdmin(admin.ModelAdmin):
    """A claim's history is written by page saves and editors' decisions: read here, never changed."""

    list_display = ("claim", "kind", "status", "page_revision", "user", "created_at")
    list_filter = ("kind", "status")
    search_fields = ("text", "reason")
    list_select_related = ("claim", "page_revision", "user")
    raw_id_fields = ("claim", "page_revision", "related_claim", "user")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Citation)
class CitationAdmin(admin.ModelAdmin):
    list_display = ("source", "locator", "kind", "claim")
    list_filter = ("kind",)
    search_fields = ("locator", "source__short_name", "claim__text")
    list_select_related = ("source", "claim")
    raw_id_fields = ("claim", "source")


@admin.register(Classification)
class ClassificationAdmin(EditedInTheWikiAdmin):
    list_display = ("subject_name", "mechanism", "algorithm", "verdict", "set_by", "updated_at")
    list_filter = ("verdict", "mechanism", "set_by", "narrow")
    search_fields = ("source__short_name", "source__title", "component__name", "algorithm", "rationale")
    list_select_related = ("source", "component")
    raw_id_fields = ("source", "component", "evidence_claim", "set_by_user")
    readonly_fields = ("edit_in_wiki", "updated_at")

    def wiki_edit_url(self, obj: Classification) -> str:  # type: ignore[override]
        return reverse("wiki:classification-edit", kwargs={"pk": obj.pk})


@admin.register(ClassificationChange)
class ClassificationChangeAdmin(admin.ModelAdmin):
    list_display = ("classification", "user", "created_at")
    list_filter = ("created_at",)
    search_fields = ("classification__source__short_name",)
    list_select_related = ("classification__source", "classification__component", "user")
    raw_id_fields = ("classification", "user")


@admin.register(Contrast)
class ContrastAdmin(admin.ModelAdmin):
    list_display = ("left", "left_component", "right", "right_component", "axis")
    search_fields = ("axis", "left__short_name", "right__short_name")
    list_select_related = ("left", "left_component", "right", "right_component")
    raw_id_fields = ("left", "left_component", "right", "right_component", "claim")


@admin.register(OpenQuestion)
class OpenQuestionAdmin(admin.ModelAdmin):
    list_display = ("title", "page", "status", "priority", "assignee", "created_at")
    list_filter = ("status", "priority", "page")
    search_fields = ("title", "text", "resolution_criteria")
    list_select_related = ("page", "assignee")
    raw_id_fields = ("page", "assignee", "claims", "sources", "answer_claim")


@admin.register(ChangeEvent)
class ChangeEventAdmin(admin.ModelAdmin):
    list_display = ("created_at", "kind", "action", "label", "user", "size_delta")
    list_filter = ("kind", "action", "created_at")
    search_fields = ("label", "summary")
    list_select_related = ("user",)
    raw_id_fields = ("user",)


@admin.register(FindingDismissal)
class FindingDismissalAdmin(admin.ModelAdmin):
    list_display = ("subject", "kind", "key", "dismissed_by", "dismissed_at", "reopened_at")
    list_filter = ("kind", "reopened_at")
    search_fields = ("subject", "reason")
    list_select_related = ("dismissed_by",)
    raw_id_fields = ("dismissed_by", "reopened_by")


@admin.register(SourceMerge)
class SourceMergeAdmin(ReadOnlyAdmin):
    """Read-only: a merge is made and undone in the wiki, which moves the rows it records."""

    list_display = ("merged", "kept", "user", "created_at", "undone_at")
    list_select_related = ("merged", "kept", "user")
    search_fields = ("merged__short_name", "kept__short_name")


@admin.register(WikiLink)
class WikiLinkAdmin(admin.ModelAdmin):
    list_display = ("source_page", "target_slug", "target_title", "label")
    search_fields = ("target_slug", "target_title", "source_page__title")
    list_select_related = ("source_page",)
    raw_id_fields = ("source_page",)


@admin.register(SearchDocument)
class SearchDocumentAdmin(ReadOnlyAdmin):
    """Read-only: documents are rebuilt from their objects on every save."""

    list_display = ("title", "kind", "object_id", "mechanism", "verdict", "updated_at")
    list_filter = ("kind", "mechanism", "verdict")
    search_fields = ("title", "body")
    exclude = ("vector",)


@admin.register(ReaderProfile)
class ReaderProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "language", "time_zone")
    list_filter = ("language",)
    search_fields = ("user__username", "time_zone")
    raw_id_fields = ("user",)


@admin.register(GlossaryTerm)
class GlossaryTermAdmin(admin.ModelAdmin):
    """Edited with the wiki's own form and saved through its service, so that no name is shared by two terms and
    pages linking to the term are rendered again."""

    form = GlossaryTermForm
    fields = [*GLOSSARY_FIELDS, "page_slug"]
    list_display = ("name_zh", "name_en", "slug", "mechanism", "verdict", "fact", "page")
    list_filter = ("mechanism", "verdict", "fact")
    search_fields = ("slug", "name_zh", "name_en")
    ordering = GLOSSARY_ORDER

    def save_model(self, request: HttpRequest, obj: GlossaryTerm, form: GlossaryTermForm, change: bool) -> None:
        if change:
            glossary_term_update(term=obj, fields=form.term_fields(), user=request.user)
        else:
            obj.pk = glossary_term_create(fields=form.term_fields(), user=request.user).pk
        obj.refresh_from_db()

    def delete_model(self, request: HttpRequest, obj: GlossaryTerm) -> None:
        glossary_term_delete(term=obj, user=request.user)

    def delete_queryset(self, request: HttpRequest, queryset: models.QuerySet[GlossaryTerm]) -> None:
        for term in queryset:
            glossary_term_delete(term=term, user=request.user)
