"""Every reader profile has a random watchlist feed key of its own: a profile without one had a feed address that
followed from the account's id and the server's secret key alone."""

import secrets
from typing import Any

from django.db import migrations, models

import wiki.models.readers


def fill(apps: Any, schema_editor: Any) -> None:
    ReaderProfile = apps.get_model("wiki", "ReaderProfile")
    keyless = list(ReaderProfile.objects.filter(feed_key="").only("pk"))
    for profile in keyless:
        profile.feed_key = secrets.token_hex(16)
    ReaderProfile.objects.bulk_update(keyless, ["feed_key"], batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        ('wiki', '0043_minor_edits'),
    ]

    operations = [
        migrations.AlterField(
            model_name='readerprofile',
            name='feed_key',
            field=models.CharField(default=wiki.models.readers.new_feed_key, editable=False, max_length=32, verbose_name='watchlist feed key'),
        ),
        # Backwards, the keys stay: a feed address given out keeps working.
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
