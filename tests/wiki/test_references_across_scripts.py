"""A reference file whose titles are written in Traditional characters finds the works the wiki keeps in Simplified
ones (and the other way round) on their titles alone, as wiki links and citations do, rather than duplicating them."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import make_source
from wiki.models import Source
from wiki.services.source_import import sources_import

pytestmark = pytest.mark.django_db

SIMPLIFIED = [("面向长程任务的智能体强化学习", "张, 伟"), ("工具调用中的策略梯度方法综述", "刘, 洋"),
              ("基于环境反馈的网页智能体训练", "")]
TRADITIONAL = [("面向長程任務的智能體強化學習", "張, 偉"), ("工具調用中的策略梯度方法綜述", "劉, 洋"),
               ("基於環境反饋的網頁智能體訓練", "")]


def _ris(works: list[tuple[str, str]], year: int = 2025) -> str:
    return "".join(f"TY  - JOUR\nTI  - {title}\n" + (f"AU  - {author}\n" if author else "") + f"PY  - {year}\nER  - \n\n"
                   for title, author in works)


def test_titles_in_traditional_characters_find_the_works_written_in_simplified_ones() -> None:
    works = [r.source for r in sources_import(text=_ris(SIMPLIFIED)).results]
    results = sources_import(text=_ris(TRADITIONAL)).results
    assert [(r.status, r.source) for r in results] == [("duplicate", work) for work in works]
    assert Source.objects.count() == 3


def test_titles_in_simplified_characters_find_the_works_written_in_traditional_ones() -> None:
    (work,) = [r.source for r in sources_import(text=_ris(TRADITIONAL[:1])).results]
    (result,) = sources_import(text=_ris(SIMPLIFIED[:1])).results
    assert (result.status, result.source) == ("duplicate", work)


def test_a_file_in_traditional_characters_takes_as_many_queries_as_one_in_simplified_ones() -> None:
    sources_import(text=_ris(SIMPLIFIED))
    with CaptureQueriesContext(connection) as simplified:
        sources_import(text=_ris(SIMPLIFIED))
    with CaptureQueriesContext(connection) as traditional:
        sources_import(text=_ris(TRADITIONAL))
    assert len(traditional.captured_queries) == len(simplified.captured_queries)


migration = importlib.import_module("wiki.migrations.0054_titles_matched_across_scripts")


def test_the_migration_reads_stored_titles_in_traditional_characters_anew() -> None:
    work = make_source(title="強化學習：綜述", year=2025)
    plain = make_source(title="Tool Learning", year=2024)
    # As the wiki stored it before titles were read in either script.
    Source.objects.filter(pk=work.pk).update(normalized_title="強化學習 綜述")

    with connection.schema_editor() as schema_editor:
        migration.forward(apps, schema_editor)
    assert Source.objects.get(pk=work.pk).normalized_title == "强化学习 综述"
    assert Source.objects.get(pk=plain.pk).normalized_title == "tool learning"
    (result,) = sources_import(text=_ris([("强化学习：综述", "")])).results
    assert (result.status, result.source) == ("duplicate", work)

    with connection.schema_editor() as schema_editor:
        migration.backward(apps, schema_editor)
    assert Source.objects.get(pk=work.pk).normalized_title == "強化學習 綜述"
