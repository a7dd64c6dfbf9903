"""Classified works' search vectors carry markers of their mechanism and verdict (``@mechanism-policy_gradient``,
``@verdict-strict``), as the index now writes them, so that a search naming either finds them."""

from django.db import migrations

ADD = """
UPDATE wiki_searchdocument
SET vector = vector || array_to_tsvector(array_remove(ARRAY[
    CASE WHEN mechanism <> '' THEN '@mechanism-' || mechanism END,
    CASE WHEN verdict <> '' THEN '@verdict-' || verdict END
], NULL))
WHERE vector IS NOT NULL AND (mechanism <> '' OR verdict <> '')
"""
REMOVE = """
UPDATE wiki_searchdocument
SET vector = ts_delete(vector, array_remove(ARRAY[
    CASE WHEN mechanism <> '' THEN '@mechanism-' || mechanism END,
    CASE WHEN verdict <> '' THEN '@verdict-' || verdict END
], NULL))
WHERE vector IS NOT NULL AND (mechanism <> '' OR verdict <> '')
"""


class Migration(migrations.Migration):
    dependencies = [("wiki", "0011_merge_works")]

    operations = [
        migrations.RunSQL(ADD, REMOVE),
        migrations.RunSQL("SELECT gin_clean_pending_list('searchdocument_vector_gin'::regclass)", migrations.RunSQL.noop),
    ]
