"""Every work's short name as lists sort it: lower case, a Chinese name read in pinyin (阿里巴巴通义 among the A's),
where Chinese names sorted by code point after every Latin one."""

from typing import Any

from django.db import migrations, models

BATCH = 2000


def fill(apps: Any, schema_editor: Any) -> None:
    # pypinyin's reading as it is installed: a later reading of a character re-sorts a name when the work is saved
    from pypinyin import lazy_pinyin

    def name_sort(short_name: str) -> str:
        has_chinese = any("\u3400" <= char <= "\u9fff" or "\uf900" <= char <= "\ufaff" for char in short_name)
        return (" ".join(lazy_pinyin(short_name)) if has_chinese else short_name).lower()

    Source = apps.get_model("wiki", "Source")
    changed = []
    for source in Source._default_manager.only("id", "short_name").iterator(chunk_size=BATCH):
        source.name_sort = name_sort(source.short_name)
        changed.append(source)
        if len(changed) == BATCH:
            Source._default_manager.bulk_update(changed, ["name_sort"])
            changed = []
    Source._default_manager.bulk_update(changed, ["name_sort"])


class Migration(migrations.Migration):
    dependencies = [("wiki", "0035_source_name_key_without_spaces")]

    operations = [
        migrations.AddField(
            model_name="source",
            name="name_sort",
            field=models.TextField(db_index=True, default="", editable=False, verbose_name="Short name as sorted"),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop, elidable=True),
    ]
