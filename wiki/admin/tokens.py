"""Editors' API tokens: seen and revoked by staff, never made or changed here."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from wiki.models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Deleting a token revokes it. None is added here: a key is shown once, to the editor who makes it (on their
    token page or by ``manage.py api_token``), and the hash kept of it is shown to no one."""

    list_display = ("user", "name", "hint", "created_at", "last_used_at", "expires_at")
    list_select_related = ("user",)
    search_fields = ("user__username", "name")
    fields = ("user", "name", "hint", "created_at", "last_used_at", "expires_at")
    ordering = ("-created_at", "-pk")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
