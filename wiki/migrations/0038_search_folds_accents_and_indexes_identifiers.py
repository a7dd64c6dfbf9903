from typing import Any

from django.db import migrations


def reindex(apps: Any, schema_editor: Any) -> None:
    """Every document indexed again, as ``manage.py search_reindex`` does: words are read without their accents, a
    work's document carries its arXiv ID, DOI and BibTeX key, and a page's text is stored as a reader sees it."""
    from wiki.search.index import search_reindex_all

    search_reindex_all()
    # Every row was rewritten: the planner's statistics are read again now, not when autovacuum next gets to them.
    schema_editor.execute("ANALYZE wiki_searchdocument")


class Migration(migrations.Migration):

    dependencies = [
        ('wiki', '0037_contrast_updated_at'),
    ]

    operations = [
        migrations.RunPython(reindex, migrations.RunPython.noop),
    ]
