from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import make_editor, make_source
from wiki.models import ChangeEvent, Source
from wiki.services.sources import sources_ensure_for_titles, unique_source_slug


def _queries_to_cite(titles: list[str]) -> int:
    with CaptureQueriesContext(connection) as cited:
        sources_ensure_for_titles(titles=titles)
    return len(cited.captured_queries)


def test_citing_many_new_works_takes_as_many_queries_as_citing_two(db: None) -> None:
    two = _queries_to_cite([f"Pair{i}: A Study" for i in range(2)])
    twenty = _queries_to_cite([f"Crowd{i}: A Study" for i in range(20)])
    assert two == twenty
    assert Source.objects.filter(short_name__startswith="Crowd").count() == 20


def test_new_sources_get_free_slugs_and_a_change_each(db: None) -> None:
    make_source(slug="quillon", short_name="Quillon")
    make_source(slug="quillon-2", short_name="Quillon 2")
    editor = make_editor("citer")
    matched, created = sources_ensure_for_titles(
        titles=["Quillon: Evolving Skills", "Quillon: A Second Paper", "Zephyra: Trajectory Distillation"], user=editor
    )
    assert sorted(s.slug for s in created) == ["quillon-3", "quillon-4", "zephyra"]
    assert matched["Zephyra: Trajectory Distillation"].normalized_title
    events = ChangeEvent.objects.filter(kind=ChangeEvent.Kind.SOURCE, action=ChangeEvent.Action.CREATED)
    assert sorted(events.values_list("label", flat=True)) == ["Quillon", "Quillon", "Zephyra"]
    assert set(events.values_list("user", flat=True)) == {editor.pk}


def test_a_slug_is_free_when_only_a_longer_one_shares_its_start(db: None) -> None:
    make_source(slug="zephyra-distill", short_name="Zephyra Distill")
    assert unique_source_slug("Zephyra") == "zephyra"
