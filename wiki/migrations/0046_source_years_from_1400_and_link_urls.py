"""A work may be dated from 1400 (Maxwell's "On Governors", 1867), a year outside said in the wiki's words; its URL may
have a host name with an underscore (``http://example_url.com``), as reference managers export them."""

from django.db import migrations, models

import wiki.models.rules


class Migration(migrations.Migration):

    dependencies = [
        ("wiki", "0045_links_and_headings_read_anew"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="source",
            name="source_year_plausible",
        ),
        migrations.AlterField(
            model_name="source",
            name="url",
            field=wiki.models.rules.LinkURLField(blank=True, help_text="Stored percent-encoded.", max_length=500, verbose_name="URL"),
        ),
        migrations.AlterField(
            model_name="source",
            name="year",
            field=models.PositiveSmallIntegerField(blank=True, null=True, validators=[wiki.models.rules.YearFromValidator(1400), wiki.models.rules.YearToValidator(2100)], verbose_name="Year"),
        ),
        migrations.AddConstraint(
            model_name="source",
            constraint=models.CheckConstraint(condition=models.Q(("year__isnull", True), models.Q(("year__gte", 1400), ("year__lte", 2100)), _connector="OR"), name="source_year_plausible"),
        ),
    ]
