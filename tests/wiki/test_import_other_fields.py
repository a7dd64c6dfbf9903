"""Re-importing a work offers the other fields (keywords, language, urldate, editor…) the file gives otherwise, one by
one as the others; those taken are recorded with the import, and undoing it gives them back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.wiki.web_imports import web_import
from wiki.models import Source, SourceImport
from wiki.services.source_import import ImportStatus, sources_import, sources_import_preview
from wiki.services.source_import_undo import source_import_undo
from wiki.services.source_updates import source_take_updates
from wiki.services.sources import source_update

pytestmark = pytest.mark.django_db

FIRST = "@article{roe2024, title={Tool Use by Agents}, author={Roe, Jane}, year={2024}, keywords={agents}, langid={english}}\n"
AGAIN = (
    "@article{roe2024, title={Tool Use by Agents}, author={Roe, Jane}, year={2024}, keywords={agents, RL}, "
    "langid={english}, urldate={2025-01-09}, venue={Vienna}}\n"
)


def _work() -> Source:
    sources_import(text=FIRST)
    return Source.objects.get()


def test_a_reimport_offers_each_other_field_the_file_gives_otherwise_and_none_it_gives_alike(db: None) -> None:
    work = _work()

    [result] = sources_import_preview(text=AGAIN).results

    assert result.status is ImportStatus.DUPLICATE and result.source == work
    offered = {u.name: (u.current, u.offered, u.fills) for u in result.updates}
    # biblatex's venue is one of the work's other fields, not its own venue: named apart
    assert offered == {
        "extra_fields.keywords": ("agents", "agents, RL", False),
        "extra_fields.urldate": ("", "2025-01-09", True),
        "extra_fields.venue": ("", "Vienna", True),
    }
    assert [u.label for u in result.updates] == [
        "keywords (other field)",
        "urldate (other field)",
        "venue (other field)",
    ]


def test_the_web_preview_offers_the_other_fields_and_taking_them_is_undone_with_the_import(
    editor_client: Client,
) -> None:
    work = _work()
    response = web_import(editor_client, {"entry": AGAIN})
    page = response.content.decode()
    ticked = re.findall(r'<input type="checkbox" name="field" value="([\w.]+)"[^>]*?( checked)?>', page)
    assert ticked == [
        ("extra_fields.keywords", ""),
        ("extra_fields.urldate", " checked"),
        ("extra_fields.venue", " checked"),
    ]
    record = SourceImport.objects.latest("pk")
    assert f'name="source_import" value="{record.pk}"' in page
    loaded_at = re.search(r'name="loaded_at" value="([^"]+)"', page)
    assert loaded_at is not None

    editor_client.post(
        reverse("wiki:source-take-updates", args=[work.slug]),
        {
            "field": ["extra_fields.keywords", "extra_fields.urldate"],
            "value-extra_fields.keywords": "agents, RL",
            "value-extra_fields.urldate": "2025-01-09",
            "loaded_at": loaded_at.group(1),
            "source_import": record.pk,
        },
    )

    work.refresh_from_db()
    assert work.extra_fields == {"keywords": "agents, RL", "langid": "english", "urldate": "2025-01-09"}
    record.refresh_from_db()
    assert record.updated_fields == {
        str(work.pk): {"extra_fields.keywords": ["agents", "agents, RL"], "extra_fields.urldate": ["", "2025-01-09"]}
    }
    detail = editor_client.get(record.get_absolute_url()).content.decode()
    assert "keywords (other field), urldate (other field)" in detail

    response = editor_client.post(reverse("wiki:import-undo", kwargs={"pk": record.pk}))

    assert response.status_code == 302
    work.refresh_from_db()
    assert work.extra_fields == {"keywords": "agents", "langid": "english"}
    record.refresh_from_db()
    assert record.undone_at is not None


def test_undoing_the_import_leaves_a_field_edited_since_and_gives_back_the_others(db: None) -> None:
    work = _work()
    record = sources_import(text=AGAIN).record
    assert record is not None
    source_take_updates(
        source=work,
        values={"extra_fields.keywords": "agents, RL", "extra_fields.venue": "Vienna", "year": "2025"},
        record=record,
    )
    work.refresh_from_db()
    source_update(source=work, fields={"extra_fields": {**work.extra_fields, "venue": "Wien"}})

    source_import_undo(record=record, user=None)

    work.refresh_from_db()
    assert work.extra_fields == {"keywords": "agents", "langid": "english", "venue": "Wien"}
    assert work.year == 2024


def test_fields_taken_twice_from_one_import_are_given_back_their_value_from_before_the_first(db: None) -> None:
    work = _work()
    record = sources_import(text=AGAIN).record
    assert record is not None
    source_take_updates(source=work, values={"extra_fields.keywords": "agents, RL"}, record=record)
    source_take_updates(source=work, values={"extra_fields.keywords": "agents, RL, tools"}, record=record)

    record.refresh_from_db()
    assert record.updated_fields[str(work.pk)] == {"extra_fields.keywords": ["agents", "agents, RL, tools"]}
    source_import_undo(record=record, user=None)
    work.refresh_from_db()
    assert work.extra_fields["keywords"] == "agents"


def test_a_name_that_is_no_other_field_a_work_keeps_is_not_taken(editor_client: Client) -> None:
    work = _work()

    editor_client.post(
        reverse("wiki:source-take-updates", args=[work.slug]),
        {"field": ["extra_fields.pages"], "value-extra_fields.pages": "1--9"},
    )

    work.refresh_from_db()
    assert "pages" not in work.extra_fields and work.bibliographic == {}


def test_the_command_line_takes_the_other_fields_the_work_lacks_and_its_import_undoes_them(
    db: None, tmp_path: Path
) -> None:
    work = _work()
    path = tmp_path / "again.bib"
    path.write_text(AGAIN, encoding="utf-8")

    call_command("import_references", str(path), "--update")

    work.refresh_from_db()
    assert work.extra_fields == {"keywords": "agents", "langid": "english", "urldate": "2025-01-09", "venue": "Vienna"}
    source_import_undo(record=SourceImport.objects.latest("pk"), user=None)
    work.refresh_from_db()
    assert work.extra_fields == {"keywords": "agents", "langid": "english"}


def test_an_imports_page_takes_as_many_queries_for_many_works_given_fields_as_for_one(editor_client: Client) -> None:
    papers = sources_import(
        text="".join(f"@article{{k{n}, title={{Paper Number {n}}}, year={{2024}}}}\n" for n in range(8))
    )
    assert papers.record is not None
    here = Source.objects.filter(pk__in=papers.record.created_ids)
    one, many = (
        sources_import(text=FIRST).record,
        sources_import(text=FIRST.replace("Tool Use", "Tool Choice").replace("roe2024", "roe2024b")).record,
    )
    for record, works in ((one, list(here)[:1]), (many, list(here)[1:])):
        for work in works:
            source_take_updates(source=work, values={"extra_fields.keywords": "agents"}, record=record)

    def queries(record: SourceImport | None) -> int:
        assert record is not None
        editor_client.get(record.get_absolute_url())
        with CaptureQueriesContext(connection) as captured:
            page = editor_client.get(record.get_absolute_url()).content.decode()
        assert "Fields it took into works already in the wiki" in page
        return len(captured.captured_queries)

    assert queries(one) == queries(many)
