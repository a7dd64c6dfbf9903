"""Every import is listed at /imports/, and one is undone as a whole while nothing else uses the works it created."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import make_classification, make_editor, make_page, make_reader, make_source
from tests.wiki.htmltext import html_text
from wiki.models import ChangeEvent, Source, SourceImport
from wiki.services.source_import import sources_import
from wiki.services.source_import_undo import ImportUndoRefused, source_import_undo
from wiki.services.sources import source_update

pytestmark = pytest.mark.django_db

FILE = (
    "@article{one, title={First Imported Work}, year={2024}}\n"
    "@article{two, title={Second Imported Work}, year={2024}}\n"
    "@article{old, title={Older Work Already Here}, year={2020}}\n"
)


def _import(text: str = FILE, user: object = None) -> SourceImport:
    report = sources_import(text=text, user=user)  # type: ignore[arg-type]
    assert report.record is not None
    return report.record


def _undo_url(record: SourceImport) -> str:
    return reverse("wiki:import-undo", kwargs={"pk": record.pk})


def test_undoing_an_import_deletes_the_works_it_created_and_nothing_else(editor_client: Client) -> None:
    older = make_source(slug="older", short_name="Older", title="Older Work Already Here", year=2020)
    record = _import()
    assert record.created_count == 2 and record.duplicate_count == 1
    created = list(Source.objects.filter(pk__in=record.created_ids).values_list("slug", flat=True))

    response = editor_client.post(_undo_url(record))

    assert response.status_code == 302 and response["Location"] == reverse("wiki:import-list")
    assert not Source.all_objects.filter(pk__in=record.created_ids).exists()
    assert Source.objects.filter(pk=older.pk).exists()
    record.refresh_from_db()
    assert record.undone_at is not None and record.undone_by is not None
    events = ChangeEvent.objects.filter(action="deleted", kind="source").order_by("label")
    assert [e.label for e in events] == ["First Imported Work", "Second Imported Work"]
    assert {e.summary for e in events} == {f"import #{record.pk} undone"}
    assert len(created) == 2
    # the file imports again, as if it had never been imported
    assert sources_import(text=FILE).counts == {"created": 2, "duplicate": 1, "refused": 0}


def test_an_import_whose_works_are_cited_is_not_undone_and_the_refusal_names_what_cites_them(editor_client: Client) -> None:
    record = _import()
    first = Source.objects.get(bibtex_key="one")
    make_page(slug="uses-it", title="A Page Citing It", body="- A claim.（来源：First Imported Work）\n")
    make_classification(Source.objects.get(bibtex_key="two"))

    response = editor_client.post(_undo_url(record))

    assert response.status_code == 409
    text = html_text(response.content.decode())
    assert "The import is not undone" in text
    assert f"{first.short_name}: cited on the page “A Page Citing It”" in text
    assert "Second Imported Work: classified since the import" in text
    assert Source.objects.filter(pk__in=record.created_ids).count() == 3
    record.refresh_from_db()
    assert record.undone_at is None


def test_the_refusal_names_each_works_use_with_the_readers_punctuation(editor_client: Client) -> None:
    record = _import()
    make_classification(Source.objects.get(bibtex_key="two"))
    response = editor_client.post(_undo_url(record), HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 409
    assert "Second Imported Work：导入后已被分类" in html_text(response.content.decode())


def test_a_work_edited_since_the_import_keeps_the_import() -> None:
    record = _import()
    work = Source.objects.get(bibtex_key="one")
    source_update(source=work, fields={"venue": "ICLR"})

    with pytest.raises(ImportUndoRefused) as refused:
        source_import_undo(record=record, user=None)

    assert [(use.work, use.use) for use in refused.value.uses] == [(work.short_name, "edited since the import")]
    assert Source.objects.filter(pk__in=record.created_ids).count() == 3


def test_an_import_undone_twice_is_undone_once(editor_client: Client) -> None:
    record = _import()
    editor_client.post(_undo_url(record))

    response = editor_client.post(_undo_url(record), follow=True)

    assert "This import is undone already." in html_text(response.content.decode())
    assert ChangeEvent.objects.filter(action="deleted").count() == 3


def test_the_imports_page_lists_who_imported_what_and_when(editor_client: Client) -> None:
    ada = make_editor("ada")
    record = _import(user=ada)
    _import(text="@article{x, title={A Third Work}}\n")

    response = editor_client.get(reverse("wiki:import-list"))

    assert response.status_code == 200
    text = html_text(response.content.decode())
    assert f"#{record.pk}" in text and "ada" in text and "through the command line" in text
    rows = list(response.context["page_obj"])
    assert [(r.entries, r.created_count, r.duplicate_count, r.refused_count) for r in rows] == [(1, 1, 0, 0), (3, 3, 0, 0)]
    detail = editor_client.get(record.get_absolute_url()).content.decode()
    assert "First Imported Work" in detail and _undo_url(record) in detail


def test_the_imports_page_says_which_imports_can_be_undone_now(editor_client: Client) -> None:
    free = _import(_bib(2, 0))
    edited = _import(_bib(2, 10))
    source_update(source=Source.objects.get(bibtex_key="k10"), fields={"venue": "ICLR"})
    classified = _import(_bib(2, 20))
    make_classification(Source.objects.get(bibtex_key="k21"))
    undone = _import(_bib(1, 30))
    source_import_undo(record=undone, user=None)
    unchanging = _import(_bib(1, 0))
    given_fields = SourceImport.objects.create(
        via=SourceImport.Via.COMMAND, format="bibtex", entries=1, created_count=0, duplicate_count=1, refused_count=0,
        updated_fields={str(make_source(short_name="Kept").pk): {"venue": [None, "ICLR"]}})

    response = editor_client.get(reverse("wiki:import-list"))

    assert response.context["undoable"] == {free.pk, given_fields.pk}
    rows = {cells[0]: cells[-1] for cells in (
        [html_text(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", response.content.decode(), re.S)) if cells}
    assert rows[f"#{free.pk}"] == rows[f"#{given_fields.pk}"] == "Undo…"
    assert rows[f"#{edited.pk}"] == rows[f"#{classified.pk}"] == "cannot be undone now"
    assert rows[f"#{undone.pk}"].startswith("undone")
    assert rows[f"#{unchanging.pk}"] == "nothing created"


def test_readers_cannot_see_or_undo_imports(client: Client) -> None:
    record = _import()
    client.force_login(make_reader())

    assert client.get(reverse("wiki:import-list")).status_code == 403
    assert client.post(_undo_url(record)).status_code == 403
    assert Source.objects.filter(pk__in=record.created_ids).count() == 3


def _bib(count: int, offset: int) -> str:
    return "".join(f"@article{{k{offset + i}, title={{Generated Work Number {offset + i}}}, year={{2024}}}}\n"
                   for i in range(count))


def test_the_imports_pages_and_the_undo_take_as_many_queries_for_many_imports_and_works(editor_client: Client) -> None:
    def queries(record: SourceImport) -> tuple[int, ...]:
        counts = []
        for url in (reverse("wiki:import-list"), record.get_absolute_url()):
            with CaptureQueriesContext(connection) as captured:
                assert editor_client.get(url).status_code == 200
            counts.append(len(captured.captured_queries))
        with CaptureQueriesContext(connection) as captured:
            assert editor_client.post(_undo_url(record)).status_code == 302
        return (*counts, len(captured.captured_queries))

    editor_client.get(reverse("wiki:import-list"))
    small = queries(_import(_bib(2, 0)))
    for n in range(5):
        _import(_bib(3, 100 + 10 * n))
    assert queries(_import(_bib(60, 1000))) == small
