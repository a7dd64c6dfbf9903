"""Editors' API tokens: only an editor has one."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext_lazy
from rest_framework.authtoken.models import Token

from wiki.roles import Account, User, is_editor


class NotAnEditor(PermissionDenied):
    """Only editors have API tokens: a token acts with the editor's rights."""

    def __init__(self) -> None:
        super().__init__(gettext_lazy("Only editors have API tokens."))


def _editor(user: User) -> Account:
    if not is_editor(user):
        raise NotAnEditor
    return user


def api_token_get(*, user: User) -> Token:
    """The editor's token, made when they have none; anyone else raises :class:`NotAnEditor`."""
    token, _ = Token.objects.get_or_create(user=_editor(user))
    return token


@transaction.atomic
def api_token_rotate(*, user: User) -> Token:
    """A new token for the editor ``user``; the old one stops working at once. Anyone else raises :class:`NotAnEditor`."""
    editor = _editor(user)
    Token.objects.filter(user=editor).delete()
    return Token.objects.create(user=editor)
