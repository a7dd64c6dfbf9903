import re
from typing import Any

from django.db import migrations

# A claim's text as Markdown's placeholders for inline HTML (\x02wzxhzdk:N\x03) and a formula's token left it.
PLACEHOLDERS = "\x02wzxhzdk:[0-9]+\x03|MATH[0-9a-f]{12}X[0-9]+X"


def reread(apps: Any, schema_editor: Any) -> None:
    """The pages whose claims hold those placeholders, their claims read again as the reader sees them. The
    placeholders are taken out first, so that each claim is matched to its sentence as it reads now."""
    from wiki.models import Page
    from wiki.services.pages import pages_reread_claims

    Claim = apps.get_model("wiki", "Claim")
    held = Claim.objects.filter(text__regex=PLACEHOLDERS)
    pages = list(held.values_list("page_id", flat=True).distinct())
    for claim in held.only("id", "text"):
        Claim.objects.filter(pk=claim.pk).update(text=re.sub(PLACEHOLDERS, "", claim.text))
    pages_reread_claims(pages=Page.all_objects.filter(pk__in=pages))


class Migration(migrations.Migration):

    dependencies = [
        ('wiki', '0032_search_reads_traditional_characters'),
    ]

    operations = [
        migrations.RunPython(reread, migrations.RunPython.noop),
    ]
