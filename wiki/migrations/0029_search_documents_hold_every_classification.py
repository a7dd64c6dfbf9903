import django.contrib.postgres.fields
from django.db import migrations, models

# Every classification of a work, its own first, then its components' by name, and a marker for each in the
# vector (the markers already there stay: they are the same first classification's).
FILL = """
WITH ordered AS (
    SELECT c.source_id, c.mechanism, c.verdict,
           row_number() OVER (PARTITION BY c.source_id ORDER BY k.name NULLS FIRST, c.id) AS n
    FROM wiki_classification c LEFT JOIN wiki_component k ON k.id = c.component_id
), lists AS (
    SELECT source_id, array_agg(mechanism ORDER BY n) AS mechanisms, array_agg(verdict ORDER BY n) AS verdicts
    FROM ordered GROUP BY source_id
)
UPDATE wiki_searchdocument d
SET mechanisms = l.mechanisms, verdicts = l.verdicts,
    vector = d.vector || array_to_tsvector(
        ARRAY(SELECT DISTINCT '@mechanism-' || m FROM unnest(l.mechanisms) m)
        || ARRAY(SELECT DISTINCT '@verdict-' || v FROM unnest(l.verdicts) v)
    )
FROM lists l
WHERE d.kind = 'source' AND d.object_id = l.source_id
"""


class Migration(migrations.Migration):

    dependencies = [
        ('wiki', '0028_claim_history_citations_edited'),
    ]

    operations = [
        migrations.AddField(
            model_name='searchdocument',
            name='mechanisms',
            field=django.contrib.postgres.fields.ArrayField(base_field=models.CharField(max_length=40), blank=True, default=list, size=None, verbose_name='Mechanisms'),
        ),
        migrations.AddField(
            model_name='searchdocument',
            name='verdicts',
            field=django.contrib.postgres.fields.ArrayField(base_field=models.CharField(max_length=20), blank=True, default=list, size=None, verbose_name='Verdicts'),
        ),
        migrations.RunSQL(FILL, migrations.RunSQL.noop),
        migrations.RemoveField(
            model_name='searchdocument',
            name='mechanism',
        ),
        migrations.RemoveField(
            model_name='searchdocument',
            name='verdict',
        ),
    ]
