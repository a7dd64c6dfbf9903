"""Logging in, the editors group and ``manage.py createeditor``."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

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
