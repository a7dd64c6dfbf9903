"""`manage.py rekey_names`: every stored sort key made again from its name, after a later pypinyin reads a character
otherwise; only the rows whose key changed are written, `--check` writes nothing and fails on a stale key, and a
second run finds nothing to do."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pypinyin
import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import make_page, make_question, make_source
from wiki.management.commands import prepare_wiki
from wiki.models import Component, GlossaryTerm, OpenQuestion, Page, Source
from wiki.services.glossary import glossary_term_create
from wiki.services.sort_keys import sort_keys_rekey
from wiki.text.sort_keys import sort_key

pytestmark = pytest.mark.django_db

_READ_TODAY = pypinyin.lazy_pinyin


def _read_later(text: str, *args: Any, **kwargs: Any) -> list[str]:
    """pypinyin as a later version might be: 重 read chóng (as in 重复) where it reads zhòng today (重要)."""
    return ["chong2" if syllable == "zhong4" else syllable for syllable in _READ_TODAY(text, *args, **kwargs)]


def _wiki() -> dict[str, Any]:
    """Names of every kind, those with 重 among them."""
    pages = [
        make_page(slug=slug, title=title)
        for slug, title in (("zhong-yao", "重要的环境"), ("grpo", "GRPO"), ("qiang-hua", "强化学习"))
    ]
    work = make_source(slug="work", short_name="重要性采样", title="Importance Sampling")
    other = make_source(slug="other", short_name="策略梯度", title="Policy Gradient")
    question = make_question(title="重大问题是否可复现？")
    component = Component.objects.create(source=other, slug="part", name="监督器")
    term = glossary_term_create(
        fields={"slug": "weight", "name_zh": "重要性权重", "name_en": "Importance weight"}, user=None
    )
    return {"pages": pages, "work": work, "other": other, "question": question, "component": component, "term": term}


def _locations() -> dict[tuple[str, int], str]:
    """Where each row's current version is stored: a row written again moves (PostgreSQL writes a new version)."""
    found: dict[tuple[str, int], str] = {}
    with connection.cursor() as cursor:
        for model in (Page, Source, OpenQuestion, Component, GlossaryTerm):
            cursor.execute(f"SELECT id, ctid::text FROM {model._meta.db_table}")
            found |= {(model.__name__, pk): ctid for pk, ctid in cursor.fetchall()}
    return found


def _writes(queries: CaptureQueriesContext) -> list[str]:
    return [
        query["sql"]
        for query in queries.captured_queries
        if query["sql"].lstrip().upper().startswith(("UPDATE", "INSERT", "DELETE"))
    ]


def test_names_a_later_pypinyin_reads_otherwise_are_rekeyed_and_no_other_row_is_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    wiki = _wiki()
    assert [page.slug for page in Page.objects.in_title_order()] == ["grpo", "qiang-hua", "zhong-yao"]
    before = _locations()
    monkeypatch.setattr(pypinyin, "lazy_pinyin", _read_later)
    out = StringIO()

    call_command("rekey_names", stdout=out)

    assert out.getvalue().splitlines() == [
        "Page: 1 of 3 rows re-keyed",
        "GlossaryTerm: 1 of 1 rows re-keyed",
        "OpenQuestion: 1 of 1 rows re-keyed",
        "Source: 1 of 2 rows re-keyed",
        "Component: 0 of 1 rows re-keyed",
        "4 of 8 rows re-keyed",
    ]
    assert [page.slug for page in Page.objects.in_title_order()] == ["zhong-yao", "grpo", "qiang-hua"]  # chóng < GRPO
    assert Source.objects.get(pk=wiki["work"].pk).name_sort == sort_key("重要性采样").replace("zhong4", "chong2")
    assert GlossaryTerm.objects.get(pk=wiki["term"].pk).name_zh_sort.startswith("chong2 yao4 xing4 quan2 chong2")
    after = _locations()
    rekeyed = {
        ("Page", wiki["pages"][0].pk),
        ("Source", wiki["work"].pk),
        ("OpenQuestion", wiki["question"].pk),
        ("GlossaryTerm", wiki["term"].pk),
    }
    assert {row for row in before if before[row] != after[row]} == rekeyed


def test_a_second_run_finds_every_key_right_and_writes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    _wiki()
    monkeypatch.setattr(pypinyin, "lazy_pinyin", _read_later)
    call_command("rekey_names", stdout=StringIO())
    out = StringIO()

    with CaptureQueriesContext(connection) as queries:
        call_command("rekey_names", verbosity=0, stdout=out)

    assert out.getvalue() == "0 of 8 rows re-keyed: every sort key is up to date\n"
    assert _writes(queries) == []


def test_check_counts_the_stale_keys_writes_nothing_and_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    wiki = _wiki()
    out = StringIO()
    call_command("rekey_names", "--check", stdout=out)
    assert out.getvalue().endswith("0 of 8 rows with a stale sort key: every sort key is up to date\n")
    monkeypatch.setattr(pypinyin, "lazy_pinyin", _read_later)
    out = StringIO()

    with CaptureQueriesContext(connection) as queries, pytest.raises(CommandError) as failed:
        call_command("rekey_names", "--check", stdout=out)

    assert str(failed.value) == "4 of 8 rows have a stale sort key: run manage.py rekey_names"
    assert "Page: 1 of 3 rows with a stale sort key" in out.getvalue().splitlines()
    assert _writes(queries) == []
    assert Source.objects.get(pk=wiki["work"].pk).name_sort.startswith("zhong4 yao4")


def test_the_rows_are_read_a_batch_at_a_time_deleted_ones_too(monkeypatch: pytest.MonkeyPatch) -> None:
    _wiki()
    gone = make_page(slug="zhong-dian", title="重点")
    gone.mark_deleted(by=None, reason="test")
    monkeypatch.setattr(pypinyin, "lazy_pinyin", _read_later)

    results = sort_keys_rekey(batch_size=2)

    assert {result.model: (result.rows, result.stale) for result in results}["Page"] == (4, 2)
    assert Page.all_objects.get(pk=gone.pk).title_sort.startswith("chong2 dian3")
    assert sum(result.stale for result in sort_keys_rekey(check=True, batch_size=2)) == 0


def test_prepare_wiki_rekeys_the_names_before_rendering_the_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    called: list[str] = []
    monkeypatch.setattr(prepare_wiki, "call_command", lambda name, **options: called.append(name))

    call_command("prepare_wiki", stdout=StringIO())

    assert called == ["migrate", "load_wiki", "rekey_names", "render_pages"]
