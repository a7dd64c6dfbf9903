"""Editors' API tokens: made by an editor, shown once, kept as a hash, expiring, revoked by their owner or when the
account stops being an editor's (a new password, a deactivation, leaving the editors)."""

from __future__ import annotations

import string
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import get_random_string
from django.utils.translation import gettext_lazy

from wiki.models.tokens import KEY_PREFIX, KEY_RANDOM_CHARS, ApiToken, key_digest, key_hint
from wiki.roles import Account, User, is_editor

# What a new token lives for unless its maker chooses otherwise, and the longest they may choose: a token writes as
# an editor, and one that never expires outlives the script it was made for.
DEFAULT_LIFETIME = timedelta(days=90)
MAX_LIFETIME = timedelta(days=366)


class NotAnEditor(PermissionDenied):
    """Only editors have API tokens: a token acts with the editor's rights."""

    def __init__(self) -> None:
        super().__init__(gettext_lazy("Only editors have API tokens."))


@dataclass(frozen=True)
class NewApiToken:
    """A token just made, with its key: the one time the key is known, to be shown to its owner and forgotten."""

    token: ApiToken
    key: str


def api_token_holder(user: User) -> Account:
    """``user``, who may hold API tokens; anyone but an editor raises :class:`NotAnEditor`."""
    if not is_editor(user):
        raise NotAnEditor
    return user


def api_token_create(*, user: User, name: str, lifetime: timedelta = DEFAULT_LIFETIME) -> NewApiToken:
    """A new token for the editor ``user``, expiring after ``lifetime`` (at most :data:`MAX_LIFETIME`); anyone else
    raises :class:`NotAnEditor`."""
    if not timedelta(0) < lifetime <= MAX_LIFETIME:
        raise ValueError(f"a token lives between a moment and {MAX_LIFETIME.days} days, not {lifetime}")
    editor = api_token_holder(user)
    key = KEY_PREFIX + get_random_string(KEY_RANDOM_CHARS, allowed_chars=string.ascii_letters + string.digits)
    now = timezone.now()
    token = ApiToken.objects.create(user=editor, name=name.strip(), digest=key_digest(key), hint=key_hint(key),
                                    created_at=now, expires_at=now + lifetime)
    return NewApiToken(token=token, key=key)


def api_token_revoke(*, user: Account, token_id: int) -> ApiToken | None:
    """Deletes ``user``'s token ``token_id``: the key stops working at once. None when they have no such token."""
    token = ApiToken.objects.filter(user=user, pk=token_id).first()
    if token is not None:
        token.delete()
    return token


def api_tokens_revoke_all(*, user: Account) -> int:
    """Deletes every token of ``user``; how many there were."""
    deleted, _ = ApiToken.objects.filter(user=user).delete()
    return deleted


def api_token_record_use(*, token: ApiToken, now: datetime | None = None) -> None:
    """Notes that ``token`` was used now, unless a use within :data:`LAST_USED_PRECISION` is noted already: a client
    sending many requests writes the row about once a minute, not once a request."""
    now = now or timezone.now()
    if token.use_is_recorded(now=now):
        return
    # Only if no other request noted a use meanwhile (or a later one).
    ApiToken.objects.filter(pk=token.pk, last_used_at=token.last_used_at).update(last_used_at=now)
    token.last_used_at = now


@transaction.atomic
def api_tokens_revoke_unentitled(*, user_ids: list[int]) -> int:
    """Deletes the tokens of those of ``user_ids`` who are no longer editors (left the editors group, lost the
    permission); how many."""
    holders = Account.objects.filter(pk__in=user_ids, api_tokens__isnull=False).distinct()
    # Fresh accounts: a permission cache on an instance in hand would still hold the rights just taken away.
    gone = [holder.pk for holder in holders if not holder.is_active or not is_editor(holder)]
    deleted, _ = ApiToken.objects.filter(user_id__in=gone).delete()
    return deleted
