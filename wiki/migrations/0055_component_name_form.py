"""Every component's name stored beside the form searches compare it in (``wiki.search.terms.match_form``), indexed,
as works' short names are: a search naming a component (``Tree-GRPO``, ``Shepherd Tree-GRPO``) leads to it through one
look-up, as one naming a work does. The forms of existing rows are derived here, in batches."""

from typing import Any

import wiki.models.sort_keys
from django.db import migrations, models

BATCH = 1000


def fill(apps: Any, schema_editor: Any) -> None:
    # The form as searches read names today: a later reading takes effect on a name when its row is saved.
    from wiki.search.terms import match_form

    manager = apps.get_model("wiki", "Component")._base_manager
    last = 0
    while rows := list(manager.filter(pk__gt=last).only("pk", "name").order_by("pk")[:BATCH]):
        for row in rows:
            row.name_form = match_form(row.name)
        manager.bulk_update(rows, ["name_form"])
        last = rows[-1].pk


class Migration(migrations.Migration):
    dependencies = [
        ("wiki", "0054_titles_matched_across_scripts"),
    ]

    operations = [
        migrations.AddField(
            model_name="component",
            name="name_form",
            field=wiki.models.sort_keys.NameFormField(
                db_collation="C", default="", editable=False, source="name", verbose_name="Name as searched"
            ),
        ),
        migrations.AddIndex(
            model_name="component",
            index=models.Index(fields=["name_form", "id"], name="component_name_form"),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
