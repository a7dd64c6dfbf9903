"""Every sortable name stored beside its sort key (``wiki.text.sort_keys``), which lists order by: a page's and an
open question's title, a work's short name and title, a component's name, a glossary term's Chinese and English
names. Chinese names sort by their pinyin among the Latin ones, where the database's collation put them after every
Latin name. The keys of existing rows are derived here, in batches; undone, the two keys that existed before (a work's
short name read in pinyin, a glossary term's Chinese name read in pinyin) are derived again as they were."""

from collections.abc import Callable
from typing import Any

import wiki.models.sort_keys
from django.conf import settings
from django.db import migrations, models

BATCH = 1000
# Each model's sort keys and the name each is derived from.
KEYS = {
    "Page": {"title_sort": "title"},
    "Source": {"name_sort": "short_name", "title_sort": "title"},
    "Component": {"name_sort": "name"},
    "OpenQuestion": {"title_sort": "title"},
    "GlossaryTerm": {"name_zh_sort": "name_zh", "name_en_sort": "name_en"},
}


def _derive(model: Any, keys: dict[str, str], key: Callable[[str], str]) -> None:
    """Sets each of ``keys`` (a field and the name it is derived from) to ``key`` of that name on every row, a batch
    at a time, reading the names alone."""
    manager = model._base_manager
    last = 0
    while rows := list(manager.filter(pk__gt=last).only("pk", *keys.values()).order_by("pk")[:BATCH]):
        for row in rows:
            for field, name in keys.items():
                setattr(row, field, key(getattr(row, name)))
        manager.bulk_update(rows, list(keys))
        last = rows[-1].pk


def fill(apps: Any, schema_editor: Any) -> None:
    # The key as it is derived today: a later reading of a name re-sorts it when the row is saved.
    from wiki.text.sort_keys import sort_key

    for name, keys in KEYS.items():
        _derive(apps.get_model("wiki", name), keys, sort_key)


def restore(apps: Any, schema_editor: Any) -> None:
    """The keys the wiki had before: a name read in pinyin, in lower case (0031 and 0036)."""
    from wiki.text.slugs import in_pinyin

    _derive(apps.get_model("wiki", "Source"), {"name_sort": "short_name"}, lambda name: in_pinyin(name).lower())
    _derive(apps.get_model("wiki", "GlossaryTerm"), {"pinyin_key": "name_zh"}, lambda name: in_pinyin(name).lower()[:600])


class Migration(migrations.Migration):

    dependencies = [
        ('wiki', '0046_source_years_from_1400_and_link_urls'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # Undone last, once the fields are as they were.
        migrations.RunPython(migrations.RunPython.noop, restore),
        migrations.AlterModelOptions(
            name='component',
            options={'ordering': ['source', 'name_sort', 'id'], 'verbose_name': 'Component', 'verbose_name_plural': 'Components'},
        ),
        migrations.AlterModelOptions(
            name='contrast',
            options={'default_manager_name': 'all_objects', 'ordering': ['left__name_sort', 'right__name_sort', 'id'], 'verbose_name': 'Contrast', 'verbose_name_plural': 'Contrasts'},
        ),
        migrations.AlterModelOptions(
            name='glossaryterm',
            options={'ordering': ('name_en_sort', 'id'), 'verbose_name': 'glossary term', 'verbose_name_plural': 'glossary terms'},
        ),
        migrations.AlterModelOptions(
            name='page',
            options={'default_manager_name': 'all_objects', 'ordering': ('title_sort', 'id'), 'verbose_name': 'Page', 'verbose_name_plural': 'Pages'},
        ),
        migrations.AlterModelOptions(
            name='source',
            options={'default_manager_name': 'all_objects', 'ordering': ('name_sort', 'pk'), 'verbose_name': 'Source', 'verbose_name_plural': 'Sources'},
        ),
        migrations.RemoveField(
            model_name='glossaryterm',
            name='pinyin_key',
        ),
        migrations.AddField(
            model_name='component',
            name='name_sort',
            field=wiki.models.sort_keys.SortKeyField(db_collation='C', default='', editable=False, source='name', verbose_name='Name as sorted'),
        ),
        migrations.AddField(
            model_name='glossaryterm',
            name='name_en_sort',
            field=wiki.models.sort_keys.SortKeyField(db_collation='C', default='', editable=False, source='name_en', verbose_name='English name as sorted'),
        ),
        migrations.AddField(
            model_name='glossaryterm',
            name='name_zh_sort',
            field=wiki.models.sort_keys.SortKeyField(db_collation='C', default='', editable=False, source='name_zh', verbose_name='Chinese name as sorted'),
        ),
        migrations.AddField(
            model_name='openquestion',
            name='title_sort',
            field=wiki.models.sort_keys.SortKeyField(db_collation='C', default='', editable=False, source='title', verbose_name='Title as sorted'),
        ),
        migrations.AddField(
            model_name='page',
            name='title_sort',
            field=wiki.models.sort_keys.SortKeyField(db_collation='C', default='', editable=False, source='title', verbose_name='Title as sorted'),
        ),
        migrations.AddField(
            model_name='source',
            name='title_sort',
            field=wiki.models.sort_keys.SortKeyField(db_collation='C', default='', editable=False, source='title', verbose_name='Title as sorted'),
        ),
        migrations.AlterField(
            model_name='source',
            name='name_sort',
            field=wiki.models.sort_keys.SortKeyField(db_collation='C', default='', editable=False, source='short_name', verbose_name='Short name as sorted'),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name='glossaryterm',
            index=models.Index(fields=['name_en_sort', 'id'], name='glossaryterm_name_en_sort'),
        ),
        migrations.AddIndex(
            model_name='glossaryterm',
            index=models.Index(fields=['name_zh_sort', 'id'], name='glossaryterm_name_zh_sort'),
        ),
        migrations.AddIndex(
            model_name='openquestion',
            index=models.Index(fields=['title_sort', 'id'], name='question_title_sort'),
        ),
        migrations.AddIndex(
            model_name='page',
            index=models.Index(fields=['title_sort', 'id'], name='page_title_sort'),
        ),
        migrations.AddIndex(
            model_name='source',
            index=models.Index(fields=['name_sort', 'id'], name='source_name_sort'),
        ),
        migrations.AddIndex(
            model_name='source',
            index=models.Index(fields=['title_sort', 'id'], name='source_title_sort'),
        ),
    ]
