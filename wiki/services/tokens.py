"""Editors' API tokens."""

from __future__ import annotations

from django.db import transaction
from rest_framework.authtoken.models import Token

from wiki.roles import Account


@transaction.atomic
def api_token_rotate(*, user: Account) -> Token:
    """A new token for ``user``; the old one stops working at once."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)
