"""Every page's title stored as the address a wiki link of it leads to, so that ``[[Agentic AI 03: …]]`` finds the page
of that title whatever its slug. Pages already linking to a page by its title still show the link as wanted until they
are rendered again: ``manage.py render_pages``."""

import re
from typing import Any

from django.db import migrations, models
from django.utils.text import slugify

BATCH = 2000
MAX_SLUG_LENGTH = 200
_SLUG = re.compile(r"^[-\w]+$")


def title_key(title: str) -> str:
    """``wiki.markdown.wikilinks.target_slug`` as it was when this migration was written."""
    title = title.strip()
    if _SLUG.match(title) and title == title.lower():
        return title[:MAX_SLUG_LENGTH]
    return slugify(title, allow_unicode=True)[:MAX_SLUG_LENGTH].rstrip("-")


def fill(apps: Any, schema_editor: Any) -> None:
    Page = apps.get_model("wiki", "Page")
    changed = []
    for page in Page._default_manager.only("id", "title").iterator(chunk_size=BATCH):
        page.title_key = title_key(page.title)
        changed.append(page)
        if len(changed) == BATCH:
            Page._default_manager.bulk_update(changed, ["title_key"])
            changed = []
    Page._default_manager.bulk_update(changed, ["title_key"])


class Migration(migrations.Migration):
    dependencies = [("wiki", "0023_source_name_key")]

    operations = [
        migrations.AddField(
            model_name="page",
            name="title_key",
            field=models.CharField(db_index=True, default="", editable=False, max_length=200,
                                   verbose_name="Title as a link target"),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
