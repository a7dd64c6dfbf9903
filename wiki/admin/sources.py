"""Works and their components."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.forms import ModelForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.html import format_html
from django.utils.translation import gettext

from wiki.admin.base import DeletedInTheWikiAdmin, NamesSortedAdmin
from wiki.field_labels import FIELD_LABELS
from wiki.forms.sources import SOURCE_FIELDS, SourceForm
from wiki.models import Component, Source
from wiki.references.draft import SourceDraft
from wiki.services.sources import SourceDuplicate, source_create, source_save

# The admin gives the name of a column or of a read-only field a capital (capfirst), which arXiv does not take: the
# markup that opens the name leaves its letters as they are, and says the name is English in a Chinese page.
ARXIV_ID = format_html('<span lang="en">{}</span>', FIELD_LABELS["arxiv_id"])


class ComponentInline(admin.TabularInline):
    model = Component
    fields = ("slug", "name")
    extra = 0
    # Not deleted here, as in the components' own admin (ComponentAdmin says why).
    can_delete = False


@admin.register(Source)
class SourceAdmin(NamesSortedAdmin, DeletedInTheWikiAdmin):
    """Saved through the wiki's source service with the wiki's own form: identifiers normalised, duplicates of
    another work refused, the change recorded and the search index brought up to date."""

    form = SourceForm
    list_display = ("short_name", "title", "kind", "year", "arxiv", "doi", "deleted_at", "merged_into")
    list_filter = ("kind", "year")
    search_fields = ("short_name", "title", "authors", "arxiv_id", "doi", "bibtex_key")
    readonly_fields = ("slug", "normalized_title", "entry_type", "bibliographic", "extra_fields", "created_at", "updated_at", "delete_in_wiki")
    fields = [*SOURCE_FIELDS, *readonly_fields]
    inlines = [ComponentInline]
    delete_view_name = "wiki:source-delete"

    @admin.display(description=ARXIV_ID, ordering="arxiv_id")
    def arxiv(self, obj: Source) -> str:
        return obj.arxiv_id

    def get_form(self, request: HttpRequest, obj: Source | None = None, change: bool = False,
                 **kwargs: Any) -> type[ModelForm[Source]]:
        # A deleted work's fields are read-only, each named by its label in the form, with a capital.
        labels = {**SourceForm.Meta.labels, "arxiv_id": ARXIV_ID}
        return super().get_form(request, obj, change, labels=labels, **kwargs)

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
class ComponentAdmin(NamesSortedAdmin):
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
