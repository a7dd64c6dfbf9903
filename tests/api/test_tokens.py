from __future__ import annotations

import hashlib
import re
from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth.forms import SetPasswordForm
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import PASSWORD, make_api_token, make_editor, make_reader
from wiki.models import ApiToken, Source
from wiki.roles import EDITOR_GROUP, Account, ensure_editor_group

pytestmark = pytest.mark.django_db


def _reads(key: str, scheme: str = "Token") -> int:
    return APIClient().get("/api/v1/sources/", HTTP_AUTHORIZATION=f"{scheme} {key}").status_code


def _writes(key: str, scheme: str = "Token") -> int:
    return APIClient().post("/api/v1/questions/", {"title": f"Asked by the script holding {key}"}, format="json",
                            HTTP_AUTHORIZATION=f"{scheme} {key}").status_code


def _command(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("api_token", *args, stdout=out, stderr=err)
    return out.getvalue().strip(), err.getvalue()


@pytest.mark.parametrize("scheme", ["Token", "Bearer", "bearer"])
def test_a_key_writes_as_its_editor_with_either_scheme(editor: Account, scheme: str) -> None:
    assert _writes(make_api_token(editor), scheme) == 201


def test_the_database_keeps_a_keys_hash_and_hint_never_the_key(editor: Account) -> None:
    key = make_api_token(editor, name="Nightly import")

    token = ApiToken.objects.get()
    assert key.startswith("arw_") and len(key) == 44
    assert token.digest == hashlib.sha256(key.encode()).hexdigest()
    assert token.hint == key[:8] and token.name == "Nightly import"
    row = ApiToken.objects.values().get()
    assert not any(key in str(value) for value in row.values())


def test_an_expired_token_is_refused_with_a_401_saying_so(editor: Account) -> None:
    key = make_api_token(editor)
    ApiToken.objects.update(created_at=timezone.now() - timedelta(days=91), expires_at=timezone.now() - timedelta(seconds=1))

    response = APIClient().get("/api/v1/sources/", HTTP_AUTHORIZATION=f"Bearer {key}", HTTP_ACCEPT_LANGUAGE="en")

    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed" and "expired" in response.json()["detail"]


def test_a_use_is_recorded_at_most_once_a_minute(editor: Account) -> None:
    key = make_api_token(editor)
    assert ApiToken.objects.get().last_used_at is None

    assert _reads(key) == 200
    first = ApiToken.objects.get().last_used_at
    assert first is not None
    recent = timezone.now() - timedelta(seconds=30)
    ApiToken.objects.update(last_used_at=recent)
    assert _reads(key) == 200
    assert ApiToken.objects.get().last_used_at == recent  # not written again within the minute
    ApiToken.objects.update(last_used_at=timezone.now() - timedelta(minutes=2))
    assert _reads(key) == 200
    last = ApiToken.objects.get().last_used_at
    assert last is not None and timezone.now() - last < timedelta(minutes=1)


def test_a_request_within_the_minute_writes_nothing(editor: Account) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    key = make_api_token(editor)
    assert _reads(key) == 200
    with CaptureQueriesContext(connection) as captured:
        assert _reads(key) == 200
    assert [q["sql"] for q in captured.captured_queries if q["sql"].startswith("UPDATE")] == []


def test_a_new_password_revokes_the_tokens(editor: Account, editor_client: Client) -> None:
    key = make_api_token(editor)

    response = editor_client.post(reverse("password_change"), {"old_password": PASSWORD, "new_password1": "a much newer pass phrase 9",
                                                               "new_password2": "a much newer pass phrase 9"})

    assert response.status_code == 302
    assert not ApiToken.objects.exists() and _reads(key) == 401


def test_a_password_reset_revokes_the_tokens(editor: Account) -> None:
    key = make_api_token(editor)
    form = SetPasswordForm(editor, {"new_password1": "a fresh pass phrase 77", "new_password2": "a fresh pass phrase 77"})
    assert form.is_valid()

    form.save()

    assert not ApiToken.objects.exists() and _reads(key) == 401


def test_a_login_or_another_change_to_the_account_keeps_the_tokens(editor: Account, client: Client) -> None:
    key = make_api_token(editor)

    assert client.post(reverse("login"), {"username": "editor", "password": PASSWORD}).status_code == 302
    editor.refresh_from_db()
    editor.email = "editor@example.org"
    editor.save()

    assert _writes(key) == 201


def test_deactivating_the_account_revokes_the_tokens(editor: Account) -> None:
    key = make_api_token(editor)

    editor.is_active = False
    editor.save(update_fields=["is_active"])

    assert not ApiToken.objects.exists() and _reads(key) == 401


@pytest.mark.parametrize("how", ["user.groups.remove", "group.user_set.remove", "user.groups.clear", "group.user_set.clear",
                                 "user.groups.set"])
def test_leaving_the_editors_revokes_the_tokens(how: str) -> None:
    leaving, staying = make_editor("leaving"), make_editor("staying")
    staying.is_superuser = True  # an editor still when the group is emptied
    staying.save()
    keys = {user.username: make_api_token(user) for user in (leaving, staying)}
    group = ensure_editor_group()

    match how:
        case "user.groups.remove":
            leaving.groups.remove(group)
        case "group.user_set.remove":
            group.user_set.remove(leaving)
        case "user.groups.clear":
            leaving.groups.clear()
        case "group.user_set.clear":
            group.user_set.clear()
        case "user.groups.set":
            leaving.groups.set([])

    assert list(ApiToken.objects.values_list("user__username", flat=True)) == ["staying"]
    assert _reads(keys["leaving"]) == 401 and _writes(keys["staying"]) == 201


def test_a_superuser_outside_the_editors_group_losing_the_flag_loses_the_tokens() -> None:
    from django.contrib.auth import get_user_model

    root = get_user_model().objects.create_superuser("root", "root@example.org", PASSWORD)
    editor_too = make_editor("editor-too")
    editor_too.is_superuser = True
    editor_too.save()
    keys = {user.username: make_api_token(user) for user in (root, editor_too)}

    for user in (root, editor_too):
        user.is_superuser = False
        user.save()

    assert _reads(keys["root"]) == 401 and _writes(keys["editor-too"]) == 201


def test_an_editor_leaving_another_group_keeps_the_tokens(editor: Account) -> None:
    from django.contrib.auth.models import Group

    reviewers = Group.objects.create(name="reviewers")
    editor.groups.add(reviewers)
    key = make_api_token(editor)

    editor.groups.remove(reviewers)

    assert editor.groups.filter(name=EDITOR_GROUP).exists() and _writes(key) == 201


def test_api_token_command_makes_a_new_token_each_time_printing_its_key_once(editor: Account) -> None:
    first, said = _command("editor")
    second, _ = _command("editor", "--name", "CI", "--expires", "7")

    assert first != second and _writes(first) == _writes(second) == 201
    assert "not shown again" in said
    ci = ApiToken.objects.get(name="CI")
    assert ci.expires_at is not None and ci.expires_at - ci.created_at == timedelta(days=7)
    listed, _ = _command("editor", "--list")
    assert first not in listed and second not in listed
    assert f"{ci.pk}\t{second[:8]}…\tCI\t" in listed


@pytest.mark.parametrize("days", ["0", "367", "-3"])
def test_api_token_command_refuses_a_lifetime_past_a_year_or_none(editor: Account, days: str) -> None:
    with pytest.raises(CommandError, match="--expires takes 1 to 366 days"):
        call_command("api_token", "editor", "--expires", days)
    assert not ApiToken.objects.exists()


def test_api_token_command_revokes_one_token_or_all(editor: Account) -> None:
    one, two, three = (make_api_token(editor, name=name) for name in ("one", "two", "three"))

    _command("editor", "--revoke", str(ApiToken.objects.get(name="one").pk))
    assert _reads(one) == 401 and _reads(two) == _reads(three) == 200
    _command("editor", "--revoke-all")
    assert _reads(two) == _reads(three) == 401
    with pytest.raises(CommandError, match="has no token"):
        _command("editor", "--revoke", "12345")


def test_api_token_command_refuses_an_unknown_user(db: None) -> None:
    with pytest.raises(CommandError, match="No user named 'ghost'"):
        call_command("api_token", "ghost")


def test_token_page_lists_the_tokens_without_their_keys(editor_client: Client, editor: Account) -> None:
    key = make_api_token(editor, name="Nightly import")
    _reads(key)

    response = editor_client.get(reverse("wiki:api-token"), HTTP_ACCEPT_LANGUAGE="en")

    html = response.content.decode()
    assert response.status_code == 200
    assert key not in html and f"<code>{key[:8]}…</code>" in html and "Nightly import" in html
    assert html.count("<time datetime=") == 3  # made, last used, expires
    # a key on the page after a POST: no cache may keep it
    assert {"no-store", "private"} <= {part.strip() for part in response["Cache-Control"].split(",")}


def test_token_page_makes_a_token_and_shows_its_key_once(editor_client: Client, editor: Account) -> None:
    response = editor_client.post(reverse("wiki:api-token"), {"name": "Laptop", "lifetime": "30"})

    assert response.status_code == 200
    match = re.search(r'value="(arw_[A-Za-z0-9]{40})"', response.content.decode())
    assert match is not None
    key = match.group(1)
    assert _writes(key) == 201
    token = ApiToken.objects.get()
    assert token.name == "Laptop" and token.expires_at is not None and token.expires_at - token.created_at == timedelta(days=30)
    assert key not in editor_client.get(reverse("wiki:api-token")).content.decode()
    assert {"no-store", "private"} <= {part.strip() for part in response["Cache-Control"].split(",")}


@pytest.mark.parametrize("data", [{"name": "", "lifetime": "90"}, {"name": "Forever", "lifetime": "0"},
                                  {"name": "Two years", "lifetime": "730"}, {"name": "Bell\x07", "lifetime": "90"}])
def test_token_page_refuses_a_token_without_a_name_or_an_offered_lifetime(editor_client: Client, data: dict[str, str]) -> None:
    response = editor_client.post(reverse("wiki:api-token"), data)

    assert response.status_code == 400
    assert not ApiToken.objects.exists()


def test_token_page_post_needs_the_csrf_token(editor: Account) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(editor)
    make_api_token(editor)

    assert client.post(reverse("wiki:api-token"), {"name": "Forged", "lifetime": "90"}).status_code == 403
    assert client.post(reverse("wiki:api-token-revoke", kwargs={"pk": ApiToken.objects.get().pk})).status_code == 403
    assert ApiToken.objects.count() == 1


def test_token_page_revokes_one_token(editor_client: Client, editor: Account) -> None:
    kept, revoked = make_api_token(editor, name="kept"), make_api_token(editor, name="revoked")

    response = editor_client.post(reverse("wiki:api-token-revoke", kwargs={"pk": ApiToken.objects.get(name="revoked").pk}),
                                  HTTP_ACCEPT_LANGUAGE="en", follow=True)

    assert "The token “revoked” was revoked" in response.content.decode()
    assert _reads(revoked) == 401 and _writes(kept) == 201


def test_an_editor_cannot_revoke_another_editors_token(editor_client: Client) -> None:
    key = make_api_token(make_editor("other"))

    response = editor_client.post(reverse("wiki:api-token-revoke", kwargs={"pk": ApiToken.objects.get().pk}))

    assert response.status_code == 404 and _writes(key) == 201


def test_token_page_is_for_editors_only(client: Client) -> None:
    anonymous = client.get(reverse("wiki:api-token"))
    client.force_login(make_reader())
    reader = client.get(reverse("wiki:api-token"))
    made = client.post(reverse("wiki:api-token"), {"name": "Mine", "lifetime": "90"})

    assert anonymous.status_code == 302 and reverse("login") in anonymous["Location"]
    assert reader.status_code == made.status_code == 403
    assert not ApiToken.objects.exists()


def test_api_token_command_refuses_a_reader_like_the_token_page() -> None:
    make_reader("bob")
    with pytest.raises(CommandError, match="No token for 'bob': Only editors have API tokens"):
        call_command("api_token", "bob")
    assert not ApiToken.objects.exists()


@pytest.mark.parametrize(("language", "said"), [("zh-Hans", "CSRF 令牌"), ("en", "CSRF token")])
def test_an_api_write_from_a_browser_session_without_the_csrf_token_is_refused_in_the_readers_language(
    editor: Account, language: str, said: str,
) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(editor)
    response = client.post("/api/v1/sources/", {"title": "Sent from another site"}, content_type="application/json",
                           HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 403
    body = response.json()
    assert body["code"] == "csrf_failed" and said in body["detail"] and "CSRF Failed" not in body["detail"]
    assert not Source.objects.filter(title="Sent from another site").exists()


def test_a_token_is_answered_in_its_accounts_language_unless_the_request_asks_for_one(editor: Account) -> None:
    from wiki.models import ReaderProfile

    ReaderProfile.objects.create(user=editor, language="zh-hans")
    key = make_api_token(editor)

    def past_the_end(**headers: str) -> tuple[str, str]:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}", **headers)
        response = client.get("/api/v1/sources/", {"page": 99})
        return response.json()["detail"], response["Content-Language"]

    assert past_the_end() == ("页码无效。", "zh-hans")
    assert past_the_end(HTTP_ACCEPT_LANGUAGE="en") == ("Invalid page.", "en")
    # an account that chose no language gets the wiki's default, as anonymous clients do
    assert APIClient().get("/api/v1/sources/", {"page": 99}, HTTP_AUTHORIZATION=f"Token {make_api_token(make_editor())}").json()["detail"] == "Invalid page."
