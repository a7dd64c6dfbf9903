"""Every work's short name stored folded (case, width, spacing and punctuation), so that a typed name is found by an
indexed equality instead of a scan of the works sharing a word with it."""

from typing import Any

from django.db import migrations, models

from wiki.references.identifiers import short_name_key

BATCH = 2000


def fill(apps: Any, schema_editor: Any) -> None:
    Source = apps.get_model("wiki", "Source")
    changed = []
    for source in Source._default_manager.only("id", "short_name").iterator(chunk_size=BATCH):
        source.name_key = short_name_key(source.short_name)
        changed.append(source)
        if len(changed) == BATCH:
            Source._default_manager.bulk_update(changed, ["name_key"])
            changed = []
    Source._default_manager.bulk_update(changed, ["name_key"])


class Migration(migrations.Migration):
    dependencies = [("wiki", "0022_stale_suggestion_on_page_deletion_and_truncate")]

    operations = [
        migrations.AddField(
            model_name="source",
            name="name_key",
            field=models.TextField(db_index=True, default="", editable=False, verbose_name="Folded short name"),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
