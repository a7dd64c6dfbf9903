"""API tokens kept as hashes: several per editor, named, expiring, with their last use.

The keys of Django REST framework's tokens (``authtoken_token``, kept readable) are carried over as their SHA-256, so
the clients sending them keep working; each expires 90 days after the upgrade, which the token page shows. Then that
table is dropped with its migration records (``rest_framework.authtoken`` is no longer installed), so that no readable
key stays in the database. A key cannot be read back from its hash: going back makes no token, and editors make new
ones (the old version's ``migrate`` creates its table again, empty).
"""

import hashlib
from datetime import timedelta
from typing import Any

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models
from django.utils import timezone

LEGACY_TABLE = "authtoken_token"
LEGACY_LIFETIME = timedelta(days=90)


def _hash_legacy_keys(apps: Any, schema_editor: Any) -> None:
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regclass(%s) IS NOT NULL", [LEGACY_TABLE])
        if not cursor.fetchone()[0]:
            return  # a database made after the change, or one that never had the table
        cursor.execute(f"SELECT key, user_id, created FROM {connection.ops.quote_name(LEGACY_TABLE)}")
        rows = cursor.fetchall()
    ApiToken = apps.get_model("wiki", "ApiToken")
    User = apps.get_model(settings.AUTH_USER_MODEL)
    # A deactivated account's token was refused already: it is not carried over.
    active = set(User._default_manager.filter(pk__in=[user for _, user, _ in rows], is_active=True)
                 .values_list("pk", flat=True))
    expires = timezone.now() + LEGACY_LIFETIME
    ApiToken._default_manager.bulk_create([
        ApiToken(user_id=user, name="", digest=hashlib.sha256(key.encode()).hexdigest(), hint=key[:4],
                 created_at=min(created, expires - timedelta(seconds=1)), expires_at=expires)
        for key, user, created in rows if user in active
    ])
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE {connection.ops.quote_name(LEGACY_TABLE)}")
        cursor.execute("DELETE FROM django_migrations WHERE app = %s", ["authtoken"])


class Migration(migrations.Migration):
    """Editors' API tokens as hashes of their keys, the keys of the former tokens hashed in their place."""

    dependencies = [
        ("wiki", "0038_search_folds_accents_and_indexes_identifiers"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ApiToken",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(blank=True, max_length=100, verbose_name="Name")),
                ("digest", models.CharField(max_length=64, unique=True, verbose_name="SHA-256 of the key")),
                ("hint", models.CharField(max_length=8, verbose_name="Key begins with")),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now, verbose_name="Created at")),
                ("expires_at", models.DateTimeField(blank=True, null=True, verbose_name="Expires at")),
                ("last_used_at", models.DateTimeField(blank=True, null=True, verbose_name="Last used at")),
                ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="api_tokens", to=settings.AUTH_USER_MODEL, verbose_name="User")),
            ],
            options={
                "verbose_name": "API token",
                "verbose_name_plural": "API tokens",
                "db_table": "api_token",
                "indexes": [models.Index(fields=["user", "-created_at"], name="api_token_user_created")],
                "constraints": [models.CheckConstraint(condition=models.Q(("expires_at__isnull", True), ("expires_at__gt", models.F("created_at")), _connector="OR"), name="api_token_expires_after_it_is_made")],
            },
        ),
        migrations.RunPython(_hash_legacy_keys, migrations.RunPython.noop),
    ]
