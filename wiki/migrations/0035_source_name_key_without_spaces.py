"""A work's folded short name leaves out spacing and punctuation altogether (``Skill Forge``, ``Skill-Forge`` and
``SkillForge`` are one name), where they were folded to a single space."""

import re
import unicodedata
from typing import Any

from django.db import migrations

BATCH = 2000
_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)


def short_name_key(short_name: str) -> str:
    """``wiki.references.identifiers.short_name_key`` as it was when this migration was written."""
    folded = _NON_WORD.sub("", unicodedata.normalize("NFKC", short_name).casefold())
    return folded or short_name.strip().casefold()


def refill(apps: Any, schema_editor: Any) -> None:
    Source = apps.get_model("wiki", "Source")
    changed = []
    for source in Source._default_manager.only("id", "short_name", "name_key").iterator(chunk_size=BATCH):
        key = short_name_key(source.short_name)
        if key != source.name_key:
            source.name_key = key
            changed.append(source)
        if len(changed) == BATCH:
            Source._default_manager.bulk_update(changed, ["name_key"])
            changed = []
    Source._default_manager.bulk_update(changed, ["name_key"])


class Migration(migrations.Migration):
    dependencies = [("wiki", "0034_source_entry_type_and_bibliographic_details")]

    operations = [migrations.RunPython(refill, migrations.RunPython.noop, elidable=True)]
