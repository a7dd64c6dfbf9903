"""Every work's short name and page's title stored beside the form searches compare it in
(``wiki.search.terms.match_form``), indexed: a search offers the works and pages named as it by one look-up, where it
folded every name of the wiki again after each write. The forms of existing rows are derived here, in batches. The
live works' ids get an index of their own, which the map's counts read instead of every row of the works."""

from typing import Any

import django.db.models.functions.text
import wiki.models.sort_keys
from django.conf import settings
from django.db import migrations, models

BATCH = 1000
FORMS = {"Page": ("title_form", "title"), "Source": ("name_form", "short_name")}


def fill(apps: Any, schema_editor: Any) -> None:
    # The form as searches read names today: a later reading takes effect on a name when its row is saved.
    from wiki.search.terms import match_form

    for name, (field, source) in FORMS.items():
        manager = apps.get_model("wiki", name)._base_manager
        last = 0
        while rows := list(manager.filter(pk__gt=last).only("pk", source).order_by("pk")[:BATCH]):
            for row in rows:
                setattr(row, field, match_form(getattr(row, source)))
            manager.bulk_update(rows, [field])
            last = rows[-1].pk


class Migration(migrations.Migration):
    dependencies = [
        ("wiki", "0051_source_import_updated_fields"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="page",
            name="title_form",
            field=wiki.models.sort_keys.NameFormField(
                db_collation="C", default="", editable=False, source="title", verbose_name="Title as searched"
            ),
        ),
        migrations.AddField(
            model_name="source",
            name="name_form",
            field=wiki.models.sort_keys.NameFormField(
                db_collation="C", default="", editable=False, source="short_name", verbose_name="Short name as searched"
            ),
        ),
        migrations.AddIndex(
            model_name="page",
            index=models.Index(fields=["title_form", "id"], name="page_title_form"),
        ),
        migrations.AddIndex(
            model_name="source",
            index=models.Index(fields=["name_form", "id"], name="source_name_form"),
        ),
        migrations.AddIndex(
            model_name="source",
            index=models.Index(django.db.models.functions.text.Lower("bibtex_key"), name="source_bibtex_key_folded"),
        ),
        migrations.AddIndex(
            model_name="source",
            index=models.Index(condition=models.Q(("deleted_at__isnull", True)), fields=["id"], name="source_live"),
        ),
        # After the indexes: rows filled before them would leave the new indexes unusable to transactions that began
        # earlier (their HOT chains broken), for as long as any such transaction runs.
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
