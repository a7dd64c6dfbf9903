"""An account's API tokens end with the trust they were made under: when its password changes (a change, a reset,
``changepassword``, the admin), when it is deactivated, and when it leaves the editors (the group, a permission taken
away, or the superuser flag that was its only right). A token acts with its owner's rights of the moment anyway; the
revocation is for a password changed because it leaked, and for a token kept by someone who was an editor.

Noticed where every path writes, the account's save and its group and permission links, rather than in each view.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Model
from django.db.models.signals import m2m_changed, post_save, pre_save

from wiki.models.tokens import ApiToken
from wiki.roles import Account
from wiki.services.tokens import api_tokens_revoke_all, api_tokens_revoke_unentitled

_CLEARED = "_wiki_token_holders_cleared"
_RECHECK = "_wiki_token_holder_recheck"


def _revoke_on_new_password_or_deactivation(sender: type[Account], instance: Account, raw: bool = False,
                                            update_fields: frozenset[str] | None = None, **kwargs: Any) -> None:
    if raw or instance.pk is None:
        return
    if update_fields is not None and not {"password", "is_active", "is_superuser"} & set(update_fields):
        return  # a login stamping last_login: no query
    # One query, finding nothing for an account without tokens.
    before = (ApiToken.objects.filter(user_id=instance.pk)
              .values("user__password", "user__is_active", "user__is_superuser").first())
    if before is None:
        return
    if before["user__password"] != instance.password or (before["user__is_active"] and not instance.is_active):
        api_tokens_revoke_all(user=instance)
    elif before["user__is_superuser"] and not instance.is_superuser:
        setattr(instance, _RECHECK, True)  # an editor still only if the group or a permission says so, once saved


def _revoke_when_no_longer_an_editor(sender: type[Account], instance: Account, **kwargs: Any) -> None:
    if instance.__dict__.pop(_RECHECK, False):
        api_tokens_revoke_unentitled(user_ids=[instance.pk])


def _revoke_on_leaving(sender: type[Model], instance: Model, action: str, reverse: bool,
                       pk_set: set[int] | None, **kwargs: Any) -> None:
    # Forward the instance is the account; reverse it is the group or permission, and pk_set the accounts.
    if action == "pre_clear" and reverse:
        setattr(instance, _CLEARED, list(instance.user_set.values_list("pk", flat=True)))  # type: ignore[attr-defined]
    elif action == "post_clear":
        api_tokens_revoke_unentitled(user_ids=instance.__dict__.pop(_CLEARED, []) if reverse else [instance.pk])
    elif action == "post_remove":
        api_tokens_revoke_unentitled(user_ids=sorted(pk_set or ()) if reverse else [instance.pk])


def connect() -> None:
    pre_save.connect(_revoke_on_new_password_or_deactivation, sender=Account, dispatch_uid="wiki.tokens.password")
    post_save.connect(_revoke_when_no_longer_an_editor, sender=Account, dispatch_uid="wiki.tokens.superuser")
    for through in (Account.groups.through, Account.user_permissions.through):
        m2m_changed.connect(_revoke_on_leaving, sender=through, dispatch_uid=f"wiki.tokens.{through._meta.label_lower}")
