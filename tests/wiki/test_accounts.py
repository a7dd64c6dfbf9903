"""Logging in, the editors group and ``manage.py createeditor``."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD, make_editor, make_reader
from wiki.roles import EDITOR_GROUP, is_editor


def test_editors_group_exists_after_migrate_with_change_permissions(db: None) -> None:
    group = Group.objects.get(name=EDITOR_GROUP)
    codenames = set(group.permissions.values_list("codename", flat=True))
    assert {"change_page", "add_source", "change_classification", "change_openquestion"} <= codenames


def test_createeditor_with_password_makes_an_editor_who_can_log_in(client: Client, db: None) -> None:
    call_command("createeditor", "ada", "--password", "a long pass phrase 42")
    user = get_user_model().objects.get(username="ada")
    assert is_editor(user)
    response = client.post(reverse("login"), {"username": "ada", "password": "a long pass phrase 42"})
    assert response.status_code == 302


def test_createeditor_reads_the_password_from_the_environment(db: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EDITOR_PASSWORD", "another long phrase 7")
    call_command("createeditor", "bob")
    assert get_user_model().objects.get(username="bob").check_password("another long phrase 7")


def test_createeditor_without_password_and_no_terminal_fails(db: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("EDITOR_PASSWORD", raising=False)
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    with pytest.raises(CommandError, match="No password"):
        call_command("createeditor", "carol")
    assert not get_user_model().objects.filter(username="carol").exists()


def test_createeditor_refuses_a_weak_password(db: None) -> None:
    with pytest.raises(CommandError):
        call_command("createeditor", "dave", "--password", "123")
    assert not get_user_model().objects.filter(username="dave").exists()


def test_login_page_has_the_standard_form(client: Client, db: None) -> None:
    response = client.get(reverse("login"))
    assert b'name="username"' in response.content and b'name="password"' in response.content


def test_createeditor_refuses_a_username_the_admin_would_refuse(db: None) -> None:
    with pytest.raises(CommandError, match="bad name!"):
        call_command("createeditor", "bad name!", "--password", "a long pass phrase 42")
    assert not get_user_model().objects.filter(username="bad name!").exists()


def test_createeditor_says_when_it_changes_an_existing_users_password(db: None) -> None:
    from io import StringIO

    call_command("createeditor", "grace", "--password", "a long pass phrase 42")
    out = StringIO()
    call_command("createeditor", "grace", "--password", "another long pass phrase", stdout=out)
    assert "Added editor grace (password changed)." in out.getvalue()


def test_post_migrate_fills_the_database_being_migrated(db: None) -> None:
    from django.apps import apps
    from django.utils.connection import ConnectionDoesNotExist

    from wiki.apps import _create_editor_group

    Group.objects.filter(name="editors").delete()
    _create_editor_group(apps.get_app_config("wiki"), using="default")
    assert Group.objects.get(name="editors").permissions.filter(codename="change_page").exists()
    # An alias this project does not configure: the handler must look there, not quietly in "default".
    with pytest.raises(ConnectionDoesNotExist):
        _create_editor_group(apps.get_app_config("wiki"), using="elsewhere")


def _logged_in(user: object) -> Client:
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    return client


def test_login_from_the_login_pages_own_header_link_leads_home_not_back_to_the_form(client: Client, db: None) -> None:
    make_reader("looper")
    for next_url in (reverse("login"), reverse("logout"), reverse("login") + "?next=/"):
        response = Client().post(reverse("login") + "?next=" + next_url, {"username": "looper", "password": PASSWORD})
        assert response.status_code == 302 and response["Location"] == reverse("wiki:home"), next_url
    elsewhere = client.post(reverse("login") + "?next=/sources/", {"username": "looper", "password": PASSWORD})
    assert elsewhere["Location"] == "/sources/"


def test_a_logged_in_reader_visiting_the_login_page_is_sent_on(db: None) -> None:
    client = _logged_in(make_reader())
    assert client.get(reverse("login"))["Location"] == reverse("wiki:home")
    assert client.get(reverse("login") + "?next=/sources/")["Location"] == "/sources/"
    assert client.get(reverse("login") + "?next=" + reverse("login"))["Location"] == reverse("wiki:home")


def test_a_reader_without_edit_rights_gets_no_new_page_link_and_an_editor_does(db: None) -> None:
    new_page = f'href="{reverse("wiki:page-create")}"'
    assert new_page not in _logged_in(make_reader()).get(reverse("wiki:home")).content.decode()
    assert new_page not in Client().get(reverse("wiki:home")).content.decode()
    assert new_page in _logged_in(make_editor()).get(reverse("wiki:home")).content.decode()


def test_the_classifier_report_is_for_editors_only(db: None) -> None:
    response = _logged_in(make_reader()).get(reverse("wiki:classifier-agreement"))
    assert response.status_code == 403
    assert "registration/login.html" not in [t.name for t in response.templates]
    assert "403.html" in [t.name for t in response.templates]


@pytest.mark.parametrize("name", ["password_change", "password_change_done"])
def test_password_change_screens_are_the_wikis_pages(name: str, db: None) -> None:
    response = _logged_in(make_reader()).get(reverse(name))
    html = response.content.decode()
    assert response.status_code == 200
    assert "base.html" in [t.name for t in response.templates]
    assert "Django" not in html and 'href="/admin/"' not in html
    assert "· Agentic RL Wiki</title>" in html


def test_a_reader_changes_their_password_from_the_preferences_page(db: None) -> None:
    reader = make_reader("changer")
    client = _logged_in(reader)
    assert f'href="{reverse("password_change")}"' in client.get(reverse("wiki:preferences")).content.decode()
    wrong = client.post(reverse("password_change"), {"old_password": "nope", "new_password1": "x", "new_password2": "y"})
    assert wrong.status_code == 200 and 'class="error-summary"' in wrong.content.decode()
    response = client.post(reverse("password_change"), {"old_password": PASSWORD, "new_password1": "a much newer pass phrase 9",
                                                        "new_password2": "a much newer pass phrase 9"})
    assert response["Location"] == reverse("password_change_done")
    reader.refresh_from_db()
    assert reader.check_password("a much newer pass phrase 9")


def test_the_login_page_offers_a_password_reset_only_when_the_wiki_sends_email(client: Client, db: None, settings) -> None:  # type: ignore[no-untyped-def]
    reset = f'href="{reverse("password_reset")}"'
    assert reset in client.get(reverse("login")).content.decode()
    settings.WIKI_SENDS_EMAIL = False
    assert reset not in client.get(reverse("login")).content.decode()
    response = client.get(reverse("password_reset"))
    assert response.status_code == 404 and "Ask an administrator to reset your password." in response.content.decode()
    assert client.post(reverse("password_reset"), {"email": "x@example.org"}).status_code == 404


def test_the_reset_email_carries_a_working_link_in_the_readers_language(db: None) -> None:
    from django.core import mail

    reader = make_reader("resetter")
    reader.email = "resetter@example.org"
    reader.save()
    client = Client(headers={"accept-language": "zh-CN"})
    form = client.get(reverse("password_reset"))
    assert "重置密码" in form.content.decode() and "Django" not in form.content.decode()
    response = client.post(reverse("password_reset"), {"email": "resetter@example.org"})
    assert response["Location"] == reverse("password_reset_done")
    assert "请查收电子邮件" in client.get(response["Location"]).content.decode()
    [message] = mail.outbox
    assert message.subject == "重置你在 Agentic RL Wiki 的密码"
    assert "要设置新密码，请打开此链接" in message.body and "你的用户名：resetter" in message.body
    link = re.search(r"http://testserver(/accounts/reset/\S+)", str(message.body))
    assert link is not None
    confirm = client.get(link.group(1), follow=True)
    assert "设置新密码" in confirm.content.decode() and 'name="new_password1"' in confirm.content.decode()
    done = client.post(confirm.redirect_chain[-1][0], {"new_password1": "a fresh pass phrase 77", "new_password2": "a fresh pass phrase 77"})
    assert done["Location"] == reverse("password_reset_complete")
    assert "密码已设置" in client.get(done["Location"]).content.decode()
    # Used once: the link is no longer valid.
    assert "此链接已失效" in client.get(link.group(1), follow=True).content.decode()


class RefusingBackend:
    """A mail server that cannot be reached."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    def send_messages(self, messages: object) -> int:
        raise ConnectionRefusedError(111, "Connection refused")


def test_a_reset_email_that_cannot_be_sent_is_said_so_and_logged(db: None, settings, caplog: pytest.LogCaptureFixture) -> None:  # type: ignore[no-untyped-def]
    settings.EMAIL_BACKEND = f"{__name__}.RefusingBackend"
    reader = make_reader("unlucky")
    reader.email = "unlucky@example.org"
    reader.save()
    response = Client().post(reverse("password_reset"), {"email": "unlucky@example.org"})
    html = response.content.decode()
    assert response.status_code == 503
    assert "The e-mail could not be sent, so no reset link is on its way." in html and 'class="error-summary"' in html
    assert any("Failed to send a password reset e-mail" in record.getMessage() and record.exc_info for record in caplog.records)


def test_createeditor_reactivates_a_deactivated_user_and_says_so(client: Client, db: None) -> None:
    from io import StringIO

    call_command("createeditor", "heidi", "--password", "a long pass phrase 42")
    get_user_model().objects.filter(username="heidi").update(is_active=False)
    out = StringIO()
    call_command("createeditor", "heidi", "--password", "another long pass phrase", stdout=out)
    assert "Added editor heidi (password changed, reactivated)." in out.getvalue()
    response = client.post(reverse("login"), {"username": "heidi", "password": "another long pass phrase"})
    assert response.status_code == 302


def test_the_login_pages_header_link_names_no_next_page_and_other_pages_name_themselves(client: Client, db: None) -> None:
    on_login = client.get(reverse("login")).content.decode()
    assert f'href="{reverse("login")}"' in on_login and "?next=" + reverse("login") not in on_login
    assert f'href="{reverse("login")}?next=/sources/"' in client.get("/sources/").content.decode()


def test_reset_mails_to_one_address_or_from_one_client_stop_past_their_limits(db: None, settings) -> None:  # type: ignore[no-untyped-def]
    from django.core import mail

    settings.WIKI_PASSWORD_RESETS_PER_ADDRESS = 4
    reader = make_reader("flooded")
    reader.email = "flooded@example.org"
    reader.save()

    def ask(email: str, address: str = "203.0.113.5") -> HttpResponse:
        return Client(REMOTE_ADDR=address).post(reverse("password_reset"), {"email": email})  # type: ignore[return-value]

    statuses = [ask("flooded@example.org").status_code for _ in range(4)]
    refused = ask("FLOODED@example.org ", address="198.51.100.20")

    assert statuses == [302, 302, 302, 429] and len(mail.outbox) == 3
    assert refused.status_code == 429 and "Too many reset links were asked for. Try again after " in refused.content.decode()
    # one client asking for many addresses is stopped too, whether or not they have accounts
    assert [ask(f"nobody{n}@example.org").status_code for n in range(2)] == [429, 429]
    assert ask("other@example.org", address="198.51.100.21").status_code == 302
    assert len(mail.outbox) == 3


def test_a_reader_sent_to_log_in_from_an_editors_form_is_told_why(client: Client, db: None) -> None:
    why = "仅供编辑者使用"
    sent = client.get(reverse("wiki:page-create"), HTTP_ACCEPT_LANGUAGE="zh-Hans", follow=True)
    assert sent.redirect_chain and sent.redirect_chain[-1][0].startswith(reverse("login"))
    assert why in sent.content.decode()
    # The header's "Log in" names the page being read as next: nothing to explain there.
    header = client.get(reverse("login"), {"next": reverse("wiki:home")}, HTTP_ACCEPT_LANGUAGE="zh-Hans")
    assert why not in header.content.decode()
    assert why not in client.get(reverse("login"), {"next": "/no/such/page/"}, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
