"""The editor role: a Django group holding the model permissions to change the wiki's content."""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission
from django.db import DEFAULT_DB_ALIAS

EDITOR_GROUP = "editors"
EDITABLE_MODELS = [
    "page", "revision", "source", "component", "claim", "citation", "classification",
    "contrast", "openquestion",
]


def ensure_editor_group(*, using: str = DEFAULT_DB_ALIAS) -> Group:
    """The editors group in database ``using``, holding every wiki permission (created when missing)."""
    group, _ = Group.objects.db_manager(using).get_or_create(name=EDITOR_GROUP)
    permissions = Permission.objects.db_manager(using).filter(content_type__app_label="wiki", content_type__model__in=EDITABLE_MODELS)
    group.permissions.add(*permissions)
    return group


def is_editor(user: object) -> bool:
    return bool(getattr(user, "is_authenticated", False) and getattr(user, "has_perm")("wiki.change_page"))
