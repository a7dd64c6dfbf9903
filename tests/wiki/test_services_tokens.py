from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token

from tests.factories import make_reader
from wiki.roles import Account
from wiki.services.tokens import NotAnEditor, api_token_get, api_token_rotate


def test_rotating_a_token_replaces_the_old_one(editor: Account) -> None:
    old = Token.objects.create(user=editor)
    new = api_token_rotate(user=editor)
    assert new.key != old.key
    assert list(Token.objects.filter(user=editor).values_list("key", flat=True)) == [new.key]


def test_rotating_makes_a_token_for_an_editor_without_one(editor: Account) -> None:
    assert api_token_rotate(user=editor).user == editor


def test_a_reader_gets_no_token(db: None) -> None:
    reader = make_reader()
    with pytest.raises(NotAnEditor):
        api_token_get(user=reader)
    with pytest.raises(NotAnEditor):
        api_token_rotate(user=reader)
    assert not Token.objects.exists()
