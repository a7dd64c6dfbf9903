from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.fields import BLANK_CHOICE_DASH
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from wiki.forms.glossary import GLOSSARY_FIELDS, GlossaryTermForm
from wiki.forms.preferences import time_zone_choices
from wiki.forms.questions import QUESTION_FIELDS, QuestionForm
from wiki.forms.sources import SOURCE_FIELDS, SourceForm
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
    StoredSuggestion,
    WikiLink,
)
from wiki.models.glossary import ORDER as GLOSSARY_ORDER
from wiki.references.draft import SourceDraft
from wiki.services.glossary import glossary_term_create, glossary_term_delete, glossary_term_update
from wiki.services.questions import QuestionDuplicate, question_create, question_update
from wiki.services.readers import reader_profile_save
from wiki.services.sources import SourceDuplicate, source_create, source_save

admin.site.site_header = _("Agentic RL Wiki administration")
admin.site.site_title = _("Agentic RL Wiki administration")
admin.site.index_title = _("The wiki's tables")

# A page's text and HTML, which a row joined with its page never shows: a changelist of 100 rows would read them all.
PAGE_TEXT = ("body", "rendered_html", "toc")


def without_text(queryset: models.QuerySet[Any], *pages: str) -> models.QuerySet[Any]:
    """``queryset`` with the pages reached through ``pages`` (field paths) joined, without their text."""
    return queryset.select_related(*pages).defer(*(f"{page}__{field}" for page in pages for field in PAGE_TEXT))


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


class RevisionInline(ReadOnlyInline):
    model = Revision
    fields = ("number", "title", "comment", "author", "size", "size_delta", "created_at")
    readonly_fields = fields
    ordering = ("-number",)

    def get_queryset(self, request: HttpRequest) -> models.QuerySet[Revision]:
        return super().get_queryset(request).defer("body")


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


@admin.register(Page)
class PageAdmin(EditedInTheWikiAdmin, DeletedInTheWikiAdmin):
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

    list_display = ("page", "number", "author", "comment", "size_delta", "created_at")
    list_filter = ("created_at",)
    search_fields = ("page__title", "page__slug", "comment")
    list_select_related = ("page", "author")

    def get_queryset(self, request: HttpRequest) -> models.QuerySet[Revision]:
        return without_text(super().get_queryset(request), "page").defer("body")


class ComponentInline(admin.TabularInline):
    model = Component
    fields = ("slug", "name")
    extra = 0
    # Not deleted here, as in the components' own admin (ComponentAdmin says why).
    can_delete = False


@admin.register(Source)
class SourceAdmin(DeletedInTheWikiAdmin):
    """Saved through the wiki's source service with the wiki's own form: identifiers normalised, duplicates of
    another work refused, the change recorded and the search index brought up to date."""

    form = SourceForm
    list_display = ("short_name", "title", "kind", "year", "arxiv_id", "doi", "deleted_at", "merged_into")
    list_filter = ("kind", "year")
    search_fields = ("short_name", "title", "authors", "arxiv_id", "doi", "bibtex_key")
    readonly_fields = ("slug", "normalized_title", "created_at", "updated_at", "delete_in_wiki")
    fields = [*SOURCE_FIELDS, *readonly_fields]
    inlines = [ComponentInline]
    delete_view_name = "wiki:source-delete"

    def has_change_permission(self, request: HttpRequest, obj: Source | None = None) -> bool:
        # A deleted work comes back through the wiki's restore first.
        return super().has_change_permission(request, obj) and not (obj is not None and obj.is_deleted)

    def save_model(self, request: HttpRequest, obj: Source, form: SourceForm, change: bool) -> None:
        fields = {name: form.cleaned_data[name] for name in SOURCE_FIELDS}
        if change:
            source_save(source=obj, fields=fields, user=request.user)
        else:
            obj.pk = source_create(draft=SourceDraft(**fields), user=request.user).pk
        obj.refresh_from_db()

    def changeform_view(self, request: HttpRequest, object_id: str | None = None, form_url: str = "",
                        extra_context: dict[str, Any] | None = None) -> HttpResponse:
        # What the form could not know (a duplicate saved meanwhile) is refused by the service; nothing is saved.
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except SourceDuplicate as duplicate:
            message = gettext("This source exists already (%(reason)s).") % {"reason": duplicate.reason}
        except ValidationError as error:
            message = " ".join(error.messages)
        self.message_user(request, message, messages.ERROR)
        return HttpResponseRedirect(request.get_full_path())


@admin.register(Component)
class ComponentAdmin(admin.ModelAdmin):
    """Renamed here (or on its work's admin page), and added here too as editors add them when they classify one (the
    classification form's "new component"); what follows from a name (cached pages, stored suggestions) follows any
    write to the table.

    Neither deleted nor moved to another work: the wiki has no service for either. Deleting would take the
    component's classification with its history, its contrasts and its suggestion with it, unrecorded; moving would
    leave its classification on the old work. Merging two works moves components with all that hangs on them."""

    list_display = ("name", "slug", "source")
    search_fields = ("name", "slug", "source__short_name")
    list_select_related = ("source",)
    raw_id_fields = ("source",)

    def get_readonly_fields(self, request: HttpRequest, obj: Component | None = None) -> tuple[str, ...]:
        return ("source",) if obj is not None else ()

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


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
    list_display = ("subject_name", "mechanism", "algorithm", "verdict", "set_by", "updated_at")
    list_filter = ("verdict", "mechanism", "set_by", "narrow")
    search_fields = ("source__short_name", "source__title", "component__name", "algorithm", "rationale")
    list_select_related = ("source", "component")
    readonly_fields = ("edit_in_wiki", "updated_at")

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


@admin.register(OpenQuestion)
class OpenQuestionAdmin(admin.ModelAdmin):
    """Edited with the wiki's own form and saved through the question service: the change is in recent changes, the
    search index follows the title and status at once, and a question sent twice is asked once.

    Not deleted here: the wiki has no deletion of questions. One not worth answering is dropped (its status), which
    keeps it with its history; a row removed here would still be found by search and linked from recent changes."""

    form = QuestionForm
    fields = [*QUESTION_FIELDS]
    list_display = ("title", "page", "status", "priority", "assignee", "created_at")
    # No filter by page: it would list every page of the wiki; a search finds a page's questions by its title or slug.
    list_filter = ("status", "priority")
    search_fields = ("title", "text", "resolution_criteria", "page__title", "page__slug")
    list_select_related = ("page", "assignee")
    raw_id_fields = ("page", "assignee", "answer_claim")

    def get_queryset(self, request: HttpRequest) -> models.QuerySet[OpenQuestion]:
        return without_text(super().get_queryset(request), "page")

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: OpenQuestion, form: QuestionForm, change: bool) -> None:
        fields, claims, sources = form.question_fields(), list(form.cleaned_data["claims"]), list(form.cleaned_data["sources"])
        if change:
            question_update(question=obj, fields=fields, claims=claims, sources=sources, user=request.user)
        else:
            obj.pk = question_create(fields=fields, claims=claims, sources=sources, user=request.user).pk
        obj.refresh_from_db()

    def save_related(self, request: HttpRequest, form: QuestionForm, formsets: Any, change: bool) -> None:
        # The service has linked the claims and works; the form's own save_m2m would write them a second time.
        for formset in formsets:
            self.save_formset(request, form, formset, change=change)

    def changeform_view(self, request: HttpRequest, object_id: str | None = None, form_url: str = "",
                        extra_context: dict[str, Any] | None = None) -> HttpResponse:
        # What the form could not know (the same question in the queue already) is refused by the service; nothing is
        # saved, and the editor is shown the question asked first.
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except QuestionDuplicate as duplicate:
            self.message_user(request, gettext("This question is in the queue already; nothing was added."), messages.INFO)
            return HttpResponseRedirect(reverse("admin:wiki_openquestion_change", args=[duplicate.question.pk]))


@admin.register(ChangeEvent)
class ChangeEventAdmin(ReadOnlyAdmin):
    """Read-only: the recent-changes feed is what the services recorded, as they recorded it."""

    list_display = ("created_at", "kind", "action", "label", "user", "size_delta")
    list_filter = ("kind", "action", "created_at")
    search_fields = ("label", "summary")
    list_select_related = ("user",)


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
class WikiLinkAdmin(ReadOnlyAdmin):
    """Read-only: links are derived from the page's text on every save, never typed."""

    list_display = ("source_page", "target_slug", "target_title", "label")
    search_fields = ("target_slug", "target_title", "source_page__title")
    list_select_related = ("source_page",)

    def get_queryset(self, request: HttpRequest) -> models.QuerySet[WikiLink]:
        return without_text(super().get_queryset(request), "source_page")


@admin.register(SearchDocument)
class SearchDocumentAdmin(ReadOnlyAdmin):
    """Read-only: documents are rebuilt from their objects on every save."""

    list_display = ("title", "kind", "object_id", "mechanism", "verdict", "updated_at")
    list_filter = ("kind", "mechanism", "verdict")
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


@admin.register(ReaderProfile)
class ReaderProfileAdmin(admin.ModelAdmin):
    """Saved through the readers' service, as the preferences page saves it, with the time zone chosen among those
    that page offers: a zone the wiki does not know would be ignored on every page of the reader's. A profile stays
    with its reader.

    Deleted as Django deletes it, there being no service for it: the reader's next page follows their cookies and
    browser again (the write moves the accounts' version), and nothing else hangs on a profile. Refusing it here
    would also refuse deleting the reader's account."""

    list_display = ("user", "language", "time_zone")
    list_filter = ("language",)
    search_fields = ("user__username", "time_zone")
    raw_id_fields = ("user",)

    def formfield_for_dbfield(self, db_field: models.Field[Any, Any], request: HttpRequest,
                              **kwargs: Any) -> forms.Field | None:
        if db_field.name == "time_zone":
            return forms.ChoiceField(label=capfirst(db_field.verbose_name), required=False,
                                     choices=[("", BLANK_CHOICE_DASH[0][1]), *time_zone_choices()])
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    def get_readonly_fields(self, request: HttpRequest, obj: ReaderProfile | None = None) -> tuple[str, ...]:
        return ("user",) if obj is not None else ()

    def save_model(self, request: HttpRequest, obj: ReaderProfile, form: Any, change: bool) -> None:
        obj.pk = reader_profile_save(user=obj.user, language=obj.language, time_zone=obj.time_zone).pk
        obj.refresh_from_db()


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
