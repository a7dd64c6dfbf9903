"""A wiki indexed before search read accents, identifiers and plain text is indexed again by the migration."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.db import connection

from tests.factories import make_page, make_source
from wiki.models import SearchDocument
from wiki.search.query import search

pytestmark = pytest.mark.django_db

migration = importlib.import_module("wiki.migrations.0038_search_folds_accents_and_indexes_identifiers")


def test_documents_written_before_are_indexed_again() -> None:
    work = make_source(short_name="Gradients", title="Gradients Revisited", authors="Müller, Jörg", arxiv_id="2307.13854")
    page = make_page(slug="footnotes", title="Footnotes", body="脚注示例[^1]。\n\n[^1]: 内容。")
    # As the index held them: words as written, a work's title words only, the page's Markdown as typed.
    with connection.cursor() as cursor:
        cursor.execute("UPDATE wiki_searchdocument SET vector = to_tsvector('simple', 'gradients revisited müller jörg')"
                       " WHERE kind = 'source' AND object_id = %s", [work.pk])
        cursor.execute("UPDATE wiki_searchdocument SET body = %s WHERE kind = 'page' AND object_id = %s",
                       ["脚注示例[^1]。\n[^1]: 内容。", page.pk])
    assert not search("Muller").groups and not search("2307.13854").groups

    with connection.schema_editor() as schema_editor:
        migration.reindex(apps, schema_editor)

    assert [hit.object_id for group in search("Muller").groups for hit in group.hits] == [work.pk]
    assert [hit.object_id for group in search("arXiv:2307.13854").groups for hit in group.hits] == [work.pk]
    assert SearchDocument.objects.get(kind="page", object_id=page.pk).body == "脚注示例。\n内容。"
