from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("wiki", "0016_change_summaries_in_the_readers_language"),
    ]

    operations = [
        migrations.AddField(
            model_name="claimrevision",
            name="reason_parts",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="claimrevision",
            name="replaced_claim_id",
            field=models.PositiveIntegerField(
                blank=True,
                db_index=True,
                help_text="A re-attachment: the claim that held the sentence and gave way (deleted); its address leads here.",
                null=True,
            ),
        ),
        migrations.AlterField(
            model_name="claimrevision",
            name="kind",
            field=models.CharField(
                choices=[
                    ("created", "created"),
                    ("reworded", "reworded"),
                    ("split", "split"),
                    ("merged", "merged into another"),
                    ("orphaned", "orphaned"),
                    ("restored", "restored"),
                    ("reattached", "re-attached"),
                    ("retired", "retired"),
                    ("status", "status set"),
                ],
                max_length=20,
            ),
        ),
    ]
