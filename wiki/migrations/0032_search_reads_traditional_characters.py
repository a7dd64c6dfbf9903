from typing import Any

from django.db import migrations


def reindex(apps: Any, schema_editor: Any) -> None:
    """The documents written with Traditional characters, indexed again now that their tokens are Simplified."""
    from wiki.search import index
    from wiki.search.tokenize import traditional_characters

    SearchDocument = apps.get_model("wiki", "SearchDocument")
    pattern = f"[{traditional_characters()}]"
    rows = SearchDocument.objects.filter(title__regex=pattern) | SearchDocument.objects.filter(body__regex=pattern)
    ids: dict[str, list[int]] = {}
    for kind, object_id in rows.values_list("kind", "object_id"):
        ids.setdefault(kind, []).append(object_id)
    reindexers = {
        "page": index.search_reindex_pages,
        "claim": index.search_reindex_claims,
        "source": index.search_reindex_sources,
        "question": index.search_reindex_questions,
    }
    for kind, kind_ids in ids.items():
        reindexers[kind](kind_ids)


class Migration(migrations.Migration):

    dependencies = [
        ('wiki', '0031_glossary_terms_ordered_by_pinyin'),
    ]

    operations = [
        migrations.RunPython(reindex, migrations.RunPython.noop),
    ]
