"""A work's title is matched whatever its accents, ampersands and LaTeX (``{\\"U}ber Agenten \\& Tools``, ``Über
Agenten & Tools`` and ``Uber agenten and tools`` are one title), as Zotero compares titles: the normalised titles of
the works whose titles hold an accented Latin letter, an ampersand or a backslash are read again, so that an import,
an edit or a citation finds them."""

import re
import unicodedata
from typing import Any

from django.db import migrations

BATCH = 2000
_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)
# The characters whose reading changes: Latin letters with accents (Latin-1 to Latin Extended-B, Latin Extended
# Additional), an ampersand, a backslash (LaTeX).
_CHANGED = "[&\\\\\u00c0-\u024f\u1e00-\u1eff]"


def _normalized(title: str, *, unaccented: bool) -> str:
    """``wiki.references.identifiers.normalize_title`` as it is with this migration (``unaccented``) and before it."""
    from wiki.references.latex import latex_to_text
    from wiki.search.tokenize import fold_accents, fold_variants

    if not unaccented:
        return _NON_WORD.sub(" ", unicodedata.normalize("NFKC", fold_variants(title)).casefold()).strip()
    text = unicodedata.normalize("NFKC", fold_variants(latex_to_text(title) if "\\" in title else title))
    return _NON_WORD.sub(" ", fold_accents(text).replace("&", " and ").casefold()).strip()


def _renormalize(apps: Any, *, unaccented: bool) -> None:
    Source = apps.get_model("wiki", "Source")
    changed = []
    for source in Source._default_manager.filter(title__regex=_CHANGED).only("id", "title", "normalized_title").iterator(
            chunk_size=BATCH):
        normalized = _normalized(source.title, unaccented=unaccented)
        if normalized != source.normalized_title:
            source.normalized_title = normalized
            changed.append(source)
    Source._default_manager.bulk_update(changed, ["normalized_title"], batch_size=BATCH)


def forward(apps: Any, schema_editor: Any) -> None:
    _renormalize(apps, unaccented=True)


def backward(apps: Any, schema_editor: Any) -> None:
    _renormalize(apps, unaccented=False)


class Migration(migrations.Migration):
    dependencies = [("wiki", "0055_component_name_form")]

    operations = [migrations.RunPython(forward, backward)]
