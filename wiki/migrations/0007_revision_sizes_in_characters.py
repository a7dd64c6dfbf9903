"""Revision sizes and their changes count characters, not UTF-8 bytes (three a Chinese character)."""

from typing import Any

from django.db import migrations
from django.db.models.functions import Length


def _sizes(apps: Any, schema_editor: Any, *, measure: Any) -> None:
    Revision = apps.get_model("wiki", "Revision")
    ChangeEvent = apps.get_model("wiki", "ChangeEvent")
    previous: dict[int, int] = {}
    deltas: dict[int, list[tuple[object, int]]] = {}
    revisions = Revision.objects.annotate(chars=measure("body")).order_by("page_id", "number").only("id", "page_id", "created_at")
    changed = []
    for revision in revisions.iterator(chunk_size=2000):
        revision.size = revision.chars
        revision.size_delta = revision.chars - previous.get(revision.page_id, 0)
        previous[revision.page_id] = revision.chars
        deltas.setdefault(revision.page_id, []).append((revision.created_at, revision.size_delta))
        changed.append(revision)
    Revision.objects.bulk_update(changed, ["size", "size_delta"], batch_size=2000)
    # A page's change event was recorded with its revision, in the same transaction and at the same time.
    events = ChangeEvent.objects.filter(kind="page", size_delta__isnull=False).only("id", "object_id", "created_at")
    matched = []
    for event in events.iterator(chunk_size=2000):
        revision_delta = _nearest(deltas.get(event.object_id, []), event.created_at)
        if revision_delta is not None:
            event.size_delta = revision_delta
            matched.append(event)
    ChangeEvent.objects.bulk_update(matched, ["size_delta"], batch_size=2000)


def _nearest(deltas: list[tuple[Any, int]], when: Any) -> int | None:
    """The change of the page's revision saved closest to ``when`` (within seconds), if any."""
    gaps = [(abs((created_at - when).total_seconds()), delta) for created_at, delta in deltas]
    best = min(gaps, default=None, key=lambda gap: gap[0])
    return best[1] if best is not None and best[0] < 5 else None


class OctetLength(Length):
    function = "OCTET_LENGTH"
    lookup_name = "octet_length"


def to_characters(apps: Any, schema_editor: Any) -> None:
    _sizes(apps, schema_editor, measure=Length)


def to_bytes(apps: Any, schema_editor: Any) -> None:
    _sizes(apps, schema_editor, measure=OctetLength)


class Migration(migrations.Migration):
    dependencies = [("wiki", "0006_reader_profile")]

    operations = [migrations.RunPython(to_characters, to_bytes)]
