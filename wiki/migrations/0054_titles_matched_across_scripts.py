"""A work's title is matched in either script, Traditional characters read as Simplified (``強化學習綜述`` is the work
titled 强化学习综述), as wiki links and citations read them: the normalised titles of the works whose titles hold
Traditional characters are read again, so that an import or a citation finds them."""

import re
import unicodedata
from typing import Any

from django.db import migrations

BATCH = 2000
_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)


def _normalized(title: str, *, simplified: bool) -> str:
    """``wiki.references.identifiers.normalize_title`` as it is with this migration (``simplified``) and before it."""
    from wiki.search.tokenize import fold_variants

    title = fold_variants(title) if simplified else title
    return _NON_WORD.sub(" ", unicodedata.normalize("NFKC", title).casefold()).strip()


def _renormalize(apps: Any, *, simplified: bool) -> None:
    from wiki.search.tokenize import traditional_characters

    Source = apps.get_model("wiki", "Source")
    changed = []
    written = Source._default_manager.filter(title__regex=f"[{traditional_characters()}]")
    for source in written.only("id", "title", "normalized_title").iterator(chunk_size=BATCH):
        normalized = _normalized(source.title, simplified=simplified)
        if normalized != source.normalized_title:
            source.normalized_title = normalized
            changed.append(source)
    Source._default_manager.bulk_update(changed, ["normalized_title"], batch_size=BATCH)


def forward(apps: Any, schema_editor: Any) -> None:
    _renormalize(apps, simplified=True)


def backward(apps: Any, schema_editor: Any) -> None:
    _renormalize(apps, simplified=False)


class Migration(migrations.Migration):
    dependencies = [("wiki", "0053_updated_at_follows_claims_lost")]

    operations = [migrations.RunPython(forward, backward)]
