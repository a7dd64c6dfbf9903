"""Imports through the API: the import's answer names its record, which editors read (/api/v1/imports/) and undo as a
whole (POST …/undo/) as on its page, with a 409 and nothing changed when it cannot be."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.factories import make_classification, make_page
from tests.queries import query_names
from wiki.caching import versions
from wiki.models import Source, SourceImport
from wiki.services.source_import import sources_import
from wiki.services.source_updates import source_take_updates

pytestmark = pytest.mark.django_db

FILE = (
    "@article{one, title={First Imported Work}, year={2024}}\n"
    "@article{two, title={Second Imported Work}, year={2024}, keywords={agents}}\n"
)


def _post(client: APIClient, text: str = FILE) -> dict[str, Any]:
    response = client.post("/api/v1/sources/import/", data=text.encode(), content_type="application/x-bibtex")
    assert response.status_code == 200, response.content
    return response.json()  # type: ignore[no-any-return]


def _file(n: int, offset: int = 0) -> str:
    return "".join(
        f"@article{{k{offset + i}, title={{Imported Paper {offset + i}}}, year={{2024}}}}\n" for i in range(n)
    )


def test_the_import_answer_names_its_record_which_reads_back(editor_api: APIClient) -> None:
    answer = _post(editor_api)

    record = SourceImport.objects.get()
    assert record.via == SourceImport.Via.API and record.created_count == 2
    assert answer["id"] == record.pk
    assert answer["api_url"] == f"http://testserver/api/v1/imports/{record.pk}/"
    assert answer["html_url"] == f"http://testserver/imports/{record.pk}/"
    detail = editor_api.get(answer["api_url"]).json()
    assert detail["id"] == record.pk and detail["via"] == "api" and detail["format"] == "bibtex"
    assert (detail["created_count"], detail["duplicate_count"], detail["refused_count"]) == (2, 0, 0)
    assert [w["slug"] for w in detail["created_works"]] == ["first-imported-work", "second-imported-work"]
    assert detail["updated_works"] == [] and detail["can_undo"] is True and detail["undo_refusal"] is None


def test_the_list_is_newest_first_with_who_imported_through_what(editor_api: APIClient, editor: object) -> None:
    sources_import(text=_file(1))
    _post(editor_api)

    rows = editor_api.get("/api/v1/imports/").json()["results"]

    assert [(r["via"], r["user"], r["created_count"], r["undone_at"]) for r in rows] == [
        ("api", "editor", 2, None),
        ("command", None, 1, None),
    ]
    assert "created_works" not in rows[0]


def test_readers_and_anonymous_clients_neither_read_nor_undo_imports(api: APIClient, reader_api: APIClient) -> None:
    record = sources_import(text=FILE).record
    assert record is not None

    assert api.get("/api/v1/imports/").status_code == 401
    assert api.post(f"/api/v1/imports/{record.pk}/undo/").status_code == 401
    assert reader_api.get("/api/v1/imports/").status_code == 403
    assert reader_api.get(f"/api/v1/imports/{record.pk}/").status_code == 403
    refused = reader_api.post(f"/api/v1/imports/{record.pk}/undo/")

    assert refused.status_code == 403 and refused.json()["code"] == "permission_denied"
    assert Source.objects.count() == 2
    record.refresh_from_db()
    assert record.undone_at is None


def test_an_editor_undoes_an_import_once(editor_api: APIClient) -> None:
    answer = _post(editor_api)
    url = f"{answer['api_url']}undo/"

    undone = editor_api.post(url)

    assert undone.status_code == 200
    body = undone.json()
    assert body["undone_at"] is not None and body["undone_by"] == "editor" and body["created_works"] == []
    assert body["can_undo"] is False and body["undo_refusal"]["code"] == "already_undone"
    assert not Source.objects.exists()
    again = editor_api.post(url)
    assert again.status_code == 409
    assert again.json() == {
        "detail": "This import is undone already.",
        "code": "already_undone",
        "errors": {},
        "codes": {},
        "uses": [],
        "more": False,
    }


def test_an_import_whose_works_are_used_is_not_undone_and_the_409_names_each_use(editor_api: APIClient) -> None:
    answer = _post(editor_api)
    make_page(slug="uses-it", title="A Page Citing It", body="- A claim.（来源：First Imported Work）\n")
    make_classification(Source.objects.get(bibtex_key="two"))

    detail = editor_api.get(answer["api_url"]).json()
    refused = editor_api.post(f"{answer['api_url']}undo/")

    assert detail["can_undo"] is False and detail["undo_refusal"]["code"] == "in_use"
    assert refused.status_code == 409
    body = refused.json()
    assert body["code"] == "in_use" and body["more"] is False
    assert {(u["work"], u["use"]) for u in body["uses"]} == {
        ("First Imported Work", "cited on the page “A Page Citing It”"),
        ("First Imported Work", "a claim on the page “A Page Citing It” is about it"),
        ("Second Imported Work", "classified since the import"),
    }
    assert detail["undo_refusal"]["uses"] == body["uses"]
    assert Source.objects.count() == 2
    assert SourceImport.objects.get().undone_at is None


def test_an_import_that_changed_nothing_has_nothing_to_undo(editor_api: APIClient) -> None:
    sources_import(text=FILE)
    answer = _post(editor_api)  # every entry already in the wiki

    refused = editor_api.post(f"{answer['api_url']}undo/")

    assert refused.status_code == 409 and refused.json()["code"] == "nothing_to_undo"
    assert SourceImport.objects.get(pk=answer["id"]).undone_at is None


def test_the_api_report_offers_other_fields_and_undoing_gives_back_those_taken(editor_api: APIClient) -> None:
    _post(editor_api)
    again = FILE.replace("keywords={agents}", "keywords={agents, RL}, langid={english}")
    answer = _post(editor_api, again)
    [second] = [entry for entry in answer["duplicate"] if entry["key"] == "two"]
    assert second["updates"] == [
        {"field": "extra_fields.keywords", "current": "agents", "offered": "agents, RL"},
        {"field": "extra_fields.langid", "current": "", "offered": "english"},
    ]
    work = Source.objects.get(bibtex_key="two")
    record = SourceImport.objects.get(pk=answer["id"])
    source_take_updates(source=work, values={u["field"]: u["offered"] for u in second["updates"]}, record=record)

    detail = editor_api.get(answer["api_url"]).json()
    assert detail["updated_count"] == 1 and detail["can_undo"] is True
    [updated] = detail["updated_works"]
    assert updated["slug"] == work.slug and updated["fields_taken"] == [
        {
            "field": "extra_fields.keywords",
            "field_label": "keywords (other field)",
            "before": "agents",
            "after": "agents, RL",
        },
        {"field": "extra_fields.langid", "field_label": "langid (other field)", "before": "", "after": "english"},
    ]
    assert editor_api.post(f"{answer['api_url']}undo/").status_code == 200
    work.refresh_from_db()
    assert work.extra_fields == {"keywords": "agents"}


def test_the_list_runs_as_many_queries_for_many_imports_as_for_two(editor_api: APIClient) -> None:
    def listed() -> list[str]:
        versions.bump()  # a response cached before is stale: count what it costs to make
        with CaptureQueriesContext(connection) as queries:
            assert editor_api.get("/api/v1/imports/", {"page_size": 200}).status_code == 200
        return query_names(queries)

    for n in range(2):
        sources_import(text=_file(1, n))
    listed()  # the editor's permissions, read once
    two = listed()
    for n in range(2, 30):
        sources_import(text=_file(1, n))
    assert listed() == two == ["COUNT wiki_sourceimport", "SELECT wiki_sourceimport"]


def test_an_import_reads_in_as_many_queries_for_many_works_as_for_two(editor_api: APIClient) -> None:
    def read(record: SourceImport | None) -> list[str]:
        assert record is not None
        versions.bump()
        with CaptureQueriesContext(connection) as queries:
            assert editor_api.get(f"/api/v1/imports/{record.pk}/").status_code == 200
        return query_names(queries)

    here = list(Source.objects.filter(pk__in=sources_import(text=_file(6, 500)).record.created_ids))  # type: ignore[union-attr]
    small = sources_import(text=_file(2)).record
    large = sources_import(text=_file(40, 100)).record
    for record, works in ((small, here[:1]), (large, here[1:])):
        for work in works:
            source_take_updates(source=work, values={"extra_fields.keywords": "agents"}, record=record)

    read(small)  # the editor's permissions, read once
    assert (
        read(small)
        == read(large)
        == [
            "SELECT wiki_sourceimport",
            "SELECT wiki_source",
            "SELECT wiki_source",
            "SELECT wiki_source",
            "SELECT wiki_citation",
            "SELECT wiki_claim_about",
            "SELECT wiki_classification",
            "SELECT wiki_component",
            "SELECT wiki_contrast",
            "SELECT wiki_openquestion_sources",
            "SELECT wiki_sourcemerge",
        ]
    )
