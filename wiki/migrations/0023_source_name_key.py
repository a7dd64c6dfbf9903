"""Every work's short name stored folded (case, width, spacing and punctuation), so that a typed name is found by an
indexed equality instead of a scan of the works sharing a word with it."""

import re
import unicodedata
from typing import Any

from django.db import migrations, models

BATCH = 2000
_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)


def short_name_key(short_name: str) -> str:
    """``wiki.references.identifiers.short_name_key`` as it was when this migration was written."""
    folded = _NON_WORD.sub(" ", unicodedata.normalize("NFKC", short_name).casefold()).strip()
    return folded or short_name.strip().casefold()


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
