from __future__ import annotations

from datetime import timedelta

import pytest

from tests.factories import make_api_token, make_editor, make_reader
from wiki.models import ApiToken
from wiki.roles import Account
from wiki.services.tokens import (
    DEFAULT_LIFETIME,
    NotAnEditor,
    api_token_create,
    api_token_revoke,
    api_tokens_revoke_all,
)


def test_a_new_token_lives_90_days_unless_told_and_never_past_a_year(editor: Account) -> None:
    made = api_token_create(user=editor, name="  Script  ")
    assert made.token.name == "Script"
    assert made.token.expires_at == made.token.created_at + DEFAULT_LIFETIME == made.token.created_at + timedelta(days=90)
    for lifetime in (timedelta(0), timedelta(days=367)):
        with pytest.raises(ValueError, match="a token lives"):
            api_token_create(user=editor, name="Too long", lifetime=lifetime)
    assert ApiToken.objects.count() == 1


def test_an_editor_has_several_tokens_each_revoked_alone(editor: Account) -> None:
    tokens = [api_token_create(user=editor, name=name).token for name in ("a", "b", "c")]
    other = make_editor("other")
    make_api_token(other)

    assert api_token_revoke(user=other, token_id=tokens[0].pk) is None  # another editor's
    revoked = api_token_revoke(user=editor, token_id=tokens[0].pk)
    assert revoked is not None and revoked.name == "a"
    assert list(ApiToken.objects.of(editor).values_list("name", flat=True)) == ["c", "b"]
    assert api_tokens_revoke_all(user=editor) == 2
    assert list(ApiToken.objects.values_list("user__username", flat=True)) == ["other"]


def test_a_reader_gets_no_token(db: None) -> None:
    reader = make_reader()
    with pytest.raises(NotAnEditor):
        api_token_create(user=reader, name="Mine")
    assert not ApiToken.objects.exists()
