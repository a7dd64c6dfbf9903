"""The editor role: a Django group holding the model permissions to change the wiki's content."""

from __future__ import annotations

from typing import TypeAlias, TypeGuard

from django.contrib.auth import models as auth_models
from django.contrib.auth.models import AnonymousUser, Group, Permission
from django.db import DEFAULT_DB_ALIAS
from django.db.models import Case, Value, When

Account: TypeAlias = auth_models.User
"""A signed-in account (``AUTH_USER_MODEL``), as the wiki's rows record it."""

User: TypeAlias = Account | AnonymousUser
"""Who makes a request (``request.user``): a signed-in account, or an anonymous reader."""

EDITOR_GROUP = "editors"
EDITABLE_MODELS = [
    "page", "revision", "source", "component", "claim", "citation", "classification",
    "contrast", "openquestion", "findingdismissal", "glossaryterm",
]


def ensure_editor_group(*, using: str = DEFAULT_DB_ALIAS) -> Group:
    """The editors group in database ``using``, holding every wiki permission (created when missing)."""
    group, _ = Group.objects.db_manager(using).get_or_create(name=EDITOR_GROUP)
    permissions = Permission.objects.db_manager(using).filter(content_type__app_label="wiki", content_type__model__in=EDITABLE_MODELS)
    # Only those it lacks: a write to the group moves the content version (pages show edit links by permission), and
    # every migrate, even one with nothing to apply, comes here.
    missing = permissions.exclude(pk__in=group.permissions.values("pk"))
    if missing.exists():
        group.permissions.add(*missing)
    return group


def account(user: User | None) -> Account | None:
    """The account to record as having made a change: none for an anonymous reader."""
    return user if isinstance(user, Account) else None


def is_editor(user: object) -> TypeGuard[Account]:
    return bool(getattr(user, "is_authenticated", False) and getattr(user, "has_perm")("wiki.change_page"))


def account_named(name: str) -> Account | None:
    """The account of that username as typed (trimmed), whatever its case, or None: none is longer than a username can be or holds a
    control character (PostgreSQL refuses NUL), so such a name is not looked up."""
    from wiki.models.rules import is_control_free

    name = name.strip()
    if not name or len(name) > Account._meta.get_field("username").max_length or not is_control_free(name):  # type: ignore[operator]
        return None
    # Names are told apart by case (``Ed`` and ``ed`` may both exist): the one spelt so first, else the one spelt so
    # but for case, as a reader typing ``ED2`` means ``ed2``.
    spelt_so = Case(When(username=name, then=Value(0)), default=Value(1))
    return Account.objects.filter(username__iexact=name).order_by(spelt_so, "username").only("id", "username").first()
