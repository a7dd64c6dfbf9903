"""The glossary, saved through the glossary services."""

from __future__ import annotations

from django.contrib import admin
from django.db import models
from django.http import HttpRequest

from wiki.admin.base import NamesSortedAdmin
from wiki.forms.glossary import GLOSSARY_FIELDS, GlossaryTermForm
from wiki.models import GlossaryTerm
from wiki.models.glossary import ORDER as GLOSSARY_ORDER
from wiki.services.glossary import glossary_term_create, glossary_term_delete, glossary_term_update


@admin.register(GlossaryTerm)
class GlossaryTermAdmin(NamesSortedAdmin):
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
