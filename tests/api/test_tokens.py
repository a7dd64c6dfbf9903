from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from tests.factories import make_reader
from wiki.models import Source
from wiki.roles import Account

pytestmark = pytest.mark.django_db


def test_api_token_command_creates_then_prints_the_same_token(editor: Account) -> None:
    first, second = StringIO(), StringIO()

    call_command("api_token", "editor", stdout=first)
    call_command("api_token", "editor", stdout=second)

    assert first.getvalue().strip() == second.getvalue().strip() == Token.objects.get(user=editor).key


def test_api_token_command_regenerates_on_request(editor: Account) -> None:
    old = Token.objects.create(user=editor).key
    out = StringIO()

    call_command("api_token", "editor", "--regenerate", stdout=out)

    assert out.getvalue().strip() != old
    assert not Token.objects.filter(key=old).exists()


def test_api_token_command_refuses_an_unknown_user(db: None) -> None:
    with pytest.raises(CommandError, match="No user named 'ghost'"):
        call_command("api_token", "ghost")


def test_token_page_shows_the_editors_token(editor_client: Client, editor: Account) -> None:
    response = editor_client.get(reverse("wiki:api-token"))

    assert response.status_code == 200
    assert Token.objects.get(user=editor).key in response.content.decode()
    # a secret on the page: no cache may keep it
    assert {"no-store", "private"} <= {part.strip() for part in response["Cache-Control"].split(",")}


def test_token_page_post_replaces_the_token(editor_client: Client, editor: Account) -> None:
    old = Token.objects.create(user=editor).key

    response = editor_client.post(reverse("wiki:api-token"))

    assert response.status_code == 302
    assert Token.objects.get(user=editor).key != old


def test_token_page_post_needs_the_csrf_token(editor: Account) -> None:
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(editor)
    old = Token.objects.create(user=editor).key

    assert client.post(reverse("wiki:api-token")).status_code == 403
    assert Token.objects.get(user=editor).key == old


def test_token_page_is_for_editors_only(client: Client) -> None:
    anonymous = client.get(reverse("wiki:api-token"))
    client.force_login(make_reader())
    reader = client.get(reverse("wiki:api-token"))

    assert anonymous.status_code == 302 and reverse("login") in anonymous["Location"]
    assert reader.status_code == 403
    assert not Token.objects.exists()


@pytest.mark.parametrize("regenerate", [False, True])
def test_api_token_command_refuses_a_reader_like_the_token_page(regenerate: bool) -> None:
    make_reader("bob")
    with pytest.raises(CommandError, match="No token for 'bob': Only editors have API tokens"):
        call_command("api_token", "bob", *(["--regenerate"] if regenerate else []))
    assert not Token.objects.exists()


@pytest.mark.parametrize(("language", "said"), [("zh-Hans", "CSRF 令牌"), ("en", "CSRF token")])
def test_an_api_write_from_a_browser_session_without_the_csrf_token_is_refused_in_the_readers_language(
    editor: Account, language: str, said: str,
) -> None:
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(editor)
    response = client.post("/api/v1/sources/", {"title": "Sent from another site"}, content_type="application/json",
                           HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 403
    body = response.json()
    assert body["code"] == "csrf_failed" and said in body["detail"] and "CSRF Failed" not in body["detail"]
    assert not Source.objects.filter(title="Sent from another site").exists()
