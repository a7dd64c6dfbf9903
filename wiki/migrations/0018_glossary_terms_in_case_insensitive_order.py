import django.db.models.functions.text
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("wiki", "0017_claim_reasons_in_the_readers_language_and_status_history"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="glossaryterm",
            options={
                "ordering": (django.db.models.functions.text.Lower("name_en"), "name_en", "id"),
                "verbose_name": "glossary term",
                "verbose_name_plural": "glossary terms",
            },
        ),
    ]
