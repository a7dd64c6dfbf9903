import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    """Contrasts can be corrected: when each was last saved, for an edit to find out that another came first."""

    dependencies = [("wiki", "0036_source_name_sort")]

    operations = [
        migrations.AddField(
            model_name="contrast",
            name="updated_at",
            field=models.DateTimeField(auto_now=True, default=django.utils.timezone.now, verbose_name="Updated at"),
            preserve_default=False,
        ),
    ]
