"""Readers' language and time-zone preferences."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db import models
from django.db.models.fields import BLANK_CHOICE_DASH
from django.http import HttpRequest
from django.utils.text import capfirst

from wiki.forms.preferences import time_zone_choices
from wiki.models import ReaderProfile, Watch
from wiki.services.readers import reader_profile_save


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

    def get_form(self, request: HttpRequest, obj: ReaderProfile | None = None, change: bool = False,
                 **kwargs: Any) -> type[forms.ModelForm[ReaderProfile]]:
        """A profile's zone stays among the choices when it is an old name no longer offered (PRC), as on the
        preferences page: saving the profile for another field keeps it."""
        form = super().get_form(request, obj, change=change, **kwargs)
        if obj is not None and obj.time_zone:
            field = form.base_fields["time_zone"]
            field.choices = [("", BLANK_CHOICE_DASH[0][1]), *time_zone_choices(keep=obj.time_zone)]  # type: ignore[attr-defined]
        return form

    def get_readonly_fields(self, request: HttpRequest, obj: ReaderProfile | None = None) -> tuple[str, ...]:
        return ("user",) if obj is not None else ()

    def save_model(self, request: HttpRequest, obj: ReaderProfile, form: Any, change: bool) -> None:
        obj.pk = reader_profile_save(user=obj.user, language=obj.language, time_zone=obj.time_zone).pk
        obj.refresh_from_db()


@admin.register(Watch)
class WatchAdmin(admin.ModelAdmin):
    """Who watches what. A reader watches and unwatches from the item's page or their watchlist; staff may take a
    watch away here (its reader then no longer sees that item's changes), not add or change one."""

    list_display = ("user", "page", "source", "question", "created_at")
    list_select_related = ("user", "page", "source", "question")
    search_fields = ("user__username", "page__title", "source__short_name", "question__title")
    fields = ("user", "page", "source", "question", "created_at")
    readonly_fields = fields
    ordering = ("-created_at", "-pk")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
