"""The keys of the former tokens, kept readable, are carried over as hashes: their clients keep working."""

from __future__ import annotations

import importlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import make_editor
from wiki.models import ApiToken

migration = importlib.import_module("wiki.migrations.0039_api_tokens_hashed")

pytestmark = pytest.mark.django_db

OLD_KEY = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"


def _former_tokens(*rows: tuple[str, int]) -> None:
    """The table Django REST framework's ``authtoken`` made, with its rows and migration records."""
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, created timestamptz NOT NULL, "
                       "user_id integer NOT NULL UNIQUE REFERENCES auth_user (id))")
        for key, user in rows:
            cursor.execute("INSERT INTO authtoken_token VALUES (%s, now() - interval '2 years', %s)", [key, user])
        cursor.execute("INSERT INTO django_migrations (app, name, applied) VALUES ('authtoken', '0001_initial', now())")


def _migrate() -> None:
    with connection.schema_editor() as schema_editor:
        migration._hash_legacy_keys(apps, schema_editor)


def test_a_former_key_keeps_working_kept_as_its_hash_for_90_days_and_the_readable_keys_are_dropped() -> None:
    editor, deactivated = make_editor("scripted"), make_editor("deactivated")
    deactivated.is_active = False
    deactivated.save()
    _former_tokens((OLD_KEY, editor.pk), ("0" * 40, deactivated.pk))

    _migrate()

    token = ApiToken.objects.get()
    assert (token.user, token.hint, token.name) == (editor, OLD_KEY[:4], "")
    assert token.expires_at is not None and timedelta(days=89) < token.expires_at - timezone.now() <= timedelta(days=90)
    response = APIClient().post("/api/v1/questions/", {"title": "Sent with a former key"}, format="json",
                                HTTP_AUTHORIZATION=f"Token {OLD_KEY}")
    assert response.status_code == 201
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regclass('authtoken_token') IS NULL, "
                       "(SELECT count(*) FROM django_migrations WHERE app = 'authtoken')")
        assert cursor.fetchone() == (True, 0)


def test_a_database_without_the_former_table_gets_no_token(editor: object) -> None:
    _migrate()

    assert not ApiToken.objects.exists()
