"""Stored arXiv IDs in the form the wiki now normalises to: an old-style ID with its subject class in upper case
(``math.gt/0309136`` → ``math.GT/0309136``), and arXiv's own DOI (``10.48550/arxiv.2307.13854``) as the arXiv ID it
names when the work has none and no other work has that ID."""

import re
from typing import Any

from django.db import migrations

_OLD_STYLE = re.compile(r"^([a-z][a-z\-]*)(?:\.([a-z]{2}))?/(\d{7})$", re.IGNORECASE)
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(\d{4}\.\d{4,5})(?:v\d+)?$", re.IGNORECASE)


def _arxiv_form(arxiv_id: str) -> str:
    match = _OLD_STYLE.match(arxiv_id)
    if not match:
        return arxiv_id
    archive, subject, number = match.groups()
    return f"{archive.lower()}.{subject.upper()}/{number}" if subject else f"{archive.lower()}/{number}"


def _forwards(apps: Any, schema_editor: Any) -> None:
    Source = apps.get_model("wiki", "Source")
    for source in Source._default_manager.filter(arxiv_id__contains="/").only("pk", "arxiv_id"):
        normal = _arxiv_form(source.arxiv_id)
        if normal != source.arxiv_id:
            Source._default_manager.filter(pk=source.pk).update(arxiv_id=normal)
    taken = set(Source._default_manager.exclude(arxiv_id="").values_list("arxiv_id", flat=True))
    for source in Source._default_manager.filter(arxiv_id="", doi__istartswith="10.48550/arxiv.").only("pk", "doi"):
        match = _ARXIV_DOI.match(source.doi)
        if match and match.group(1) not in taken:
            taken.add(match.group(1))
            Source._default_manager.filter(pk=source.pk).update(arxiv_id=match.group(1), doi="")


def _backwards(apps: Any, schema_editor: Any) -> None:
    Source = apps.get_model("wiki", "Source")
    for source in Source._default_manager.filter(arxiv_id__contains="/").only("pk", "arxiv_id"):
        Source._default_manager.filter(pk=source.pk).update(arxiv_id=source.arxiv_id.lower())


class Migration(migrations.Migration):
    dependencies = [("wiki", "0014_lowercase_existing_page_slugs")]

    operations = [migrations.RunPython(_forwards, _backwards)]
