"""Names sort as Chinese readers expect: a Chinese name by its pinyin, among the Latin ones (Agentic RL, 策略梯度 cè,
GRPO, 强化学习 qiáng, SkillForge, 中文 zhōng), in the HTML lists, the API's and the admin's, however the rows were
written, from a key stored beside each name."""

from __future__ import annotations

import importlib
import re

import pytest
from django.apps import apps
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import make_editor, make_page, make_question, make_source
from wiki.devtools.generate import wiki_generate
from wiki.models import Component, GlossaryTerm, OpenQuestion, Page, Source
from wiki.models.sort_keys import sort_key_fields
from wiki.services.glossary import glossary_term_create
from wiki.services.page_moves import page_move
from wiki.services.pages import page_save_revision
from wiki.services.source_import import sources_import
from wiki.text.sort_keys import MAX_KEY_BYTES, SEPARATOR, reading, sort_key

pytestmark = pytest.mark.django_db

migration = importlib.import_module("wiki.migrations.0047_names_sorted_as_chinese_readers_expect")

# (slug, name), and the order a Chinese dictionary gives them
MIXED = [("zhong-wen", "中文"), ("skillforge", "SkillForge"), ("qiang-hua", "强化学习"), ("grpo", "GRPO"),
         ("ce-lue", "策略梯度"), ("agentic-rl", "Agentic RL")]
IN_PINYIN_ORDER = ["agentic-rl", "ce-lue", "grpo", "qiang-hua", "skillforge", "zhong-wen"]


def _pages() -> None:
    for slug, title in MIXED:
        make_page(slug=slug, title=title)


def _works() -> None:
    for slug, name in MIXED:
        make_source(slug=slug, short_name=name, title=f"{name}: a study")


def _listed_pages(html: str) -> list[str]:
    return re.findall(r'<a href="/wiki/([^/"]+)/" lang="[^"]+" class="page-link">', html)


def _listed_works(html: str) -> list[str]:
    return re.findall(r'<a href="/sources/([^/"]+)/" class="short-name"', html)


def test_a_chinese_name_sorts_by_its_pinyin_among_the_latin_ones() -> None:
    names = dict(MIXED)
    assert sorted(names, key=lambda slug: sort_key(names[slug])) == IN_PINYIN_ORDER
    # a syllable ends with its tone: 西安 (xi1 an1) before 先 (xian1), 阿 (a1) before Agentic
    assert sorted(["先", "西安", "Agentic", "阿里"], key=sort_key) == ["阿里", "Agentic", "西安", "先"]


def test_full_width_traditional_and_capital_forms_read_alike_and_keep_one_order() -> None:
    assert reading("ＧＲＰＯ") == reading("GRPO") == reading("grpo") == "grpo"
    assert reading("強化學習") == reading("强化学习") == "qiang2 hua4 xue2 xi2"
    assert reading("策") == reading("测") == "ce4"
    # read alike, they are told apart by the name as written, whatever order they come in
    assert sorted(["策", "测"], key=sort_key) == sorted(["测", "策"], key=sort_key) == ["测", "策"]
    assert sorted(["grpo", "ＧＲＰＯ", "GRPO"], key=sort_key) == ["GRPO", "grpo", "ＧＲＰＯ"]
    # a name sorts before a longer one it begins, the separator below any character of a reading
    assert sort_key("Agent") < sort_key("Agent RL") < sort_key("AgentBench")
    assert sort_key("Agent").startswith(f"agent{SEPARATOR}")
    assert sort_key("") == ""


def test_a_long_chinese_title_gets_a_key_the_index_holds() -> None:
    title = "强化学习" * 75  # 300 characters, the longest title a page may have
    assert len(sort_key(title).encode()) <= MAX_KEY_BYTES

    page = make_page(slug="long", title=title)

    assert Page.objects.get(pk=page.pk).title_sort == sort_key(title)


def test_the_page_list_and_the_api_list_show_pages_in_pinyin_order(client: Client) -> None:
    _pages()

    html = client.get(reverse("wiki:page-list"), HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    api = APIClient().get("/api/v1/pages/").json()["results"]
    descending = APIClient().get("/api/v1/pages/", {"ordering": "-title"}).json()["results"]

    assert _listed_pages(html) == IN_PINYIN_ORDER
    assert [row["slug"] for row in api] == IN_PINYIN_ORDER
    assert [row["slug"] for row in descending] == IN_PINYIN_ORDER[::-1]


def test_a_renamed_page_moves_in_the_list(client: Client) -> None:
    _pages()
    page = Page.objects.get(slug="zhong-wen")

    page_save_revision(slug="zhong-wen", title="阿拉伯文", body=page.body)  # ā, before Agentic RL
    renamed = _listed_pages(client.get(reverse("wiki:page-list")).content.decode())
    page_move(page=Page.objects.get(slug="skillforge"), slug="bandit", title="Bandit", user=make_editor())
    moved = _listed_pages(client.get(reverse("wiki:page-list")).content.decode())

    assert renamed == ["zhong-wen", "agentic-rl", "ce-lue", "grpo", "qiang-hua", "skillforge"]
    assert moved == ["zhong-wen", "agentic-rl", "bandit", "ce-lue", "grpo", "qiang-hua"]


def test_the_source_list_and_the_api_sort_short_names_and_titles_in_pinyin_order(client: Client) -> None:
    _works()

    html = client.get(reverse("wiki:source-list")).content.decode()
    by_title = client.get(reverse("wiki:source-list"), {"sort": "-title"}).content.decode()
    api = APIClient().get("/api/v1/sources/").json()["results"]
    api_by_title = APIClient().get("/api/v1/sources/", {"ordering": "title"}).json()["results"]

    assert _listed_works(html) == IN_PINYIN_ORDER
    assert _listed_works(by_title) == IN_PINYIN_ORDER[::-1]
    assert [row["slug"] for row in api] == [row["slug"] for row in api_by_title] == IN_PINYIN_ORDER


def test_the_api_orders_names_through_relations_by_their_keys() -> None:
    for slug, title in MIXED:
        make_page(slug=slug, title=title, body=f"## 关键要点\n\n- A claim of {slug}.\n")
    for slug, _ in MIXED:
        make_question(title=f"{dict(MIXED)[slug]} 是否可复现？")

    claims = APIClient().get("/api/v1/claims/").json()["results"]
    questions = APIClient().get("/api/v1/questions/", {"ordering": "title"}).json()["results"]

    assert [row["text"].split()[-1].rstrip(".") for row in claims] == IN_PINYIN_ORDER
    assert [row["title"].removesuffix(" 是否可复现？") for row in questions] == [
        dict(MIXED)[slug] for slug in IN_PINYIN_ORDER]


def test_the_glossary_api_orders_the_chinese_names_in_pinyin() -> None:
    for slug, zh, en in (("env", "环境", "Environment"), ("pg", "策略梯度", "Policy gradient"), ("grpo-t", "GRPO", "GRPO"),
                         ("adv", "优势函数", "advantage")):
        glossary_term_create(fields={"slug": slug, "name_zh": zh, "name_en": en}, user=None)

    by_zh = APIClient().get("/api/v1/glossary/", {"ordering": "name_zh"}).json()["results"]
    by_en = APIClient().get("/api/v1/glossary/").json()["results"]

    assert [row["slug"] for row in by_zh] == ["pg", "grpo-t", "env", "adv"]
    assert [row["slug"] for row in by_en] == ["adv", "env", "grpo-t", "pg"]


def test_a_name_column_of_the_admin_sorts_by_the_key(client: Client) -> None:
    _pages()
    admin = make_editor("root")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    client.force_login(admin)

    html = client.get(reverse("admin:wiki_page_changelist"), {"o": "-0"}).content.decode()  # by title, descending

    titles = re.findall(r'<th class="field-title"><a href="/admin/wiki/page/\d+/change/[^"]*">([^<]+)</a>', html)
    assert titles == [dict(MIXED)[slug] for slug in IN_PINYIN_ORDER[::-1]]


def test_bulk_imported_works_get_their_keys_and_sort_among_the_others(client: Client) -> None:
    make_source(slug="bandit", short_name="Bandit", title="Bandit")
    bibtex = """
@article{zhineng2025, title = {智能体强化学习综述}, author = {Li, Hua}, year = {2025}}
@article{agentgym2025, title = {AgentGym: Evolving Agents}, author = {Xi, Zhiheng}, year = {2025}}
@article{ceshi2024, title = {策略梯度方法}, author = {Wang, Fang}, year = {2024}}
"""
    sources_import(text=bibtex)

    works = list(Source.objects.exclude(slug="bandit"))
    html = client.get(reverse("wiki:source-list")).content.decode()

    assert len(works) == 3
    assert all(w.name_sort == sort_key(w.short_name) and w.title_sort == sort_key(w.title) for w in works)
    names = {w.slug: w.short_name for w in Source.objects.all()}
    assert [names[slug] for slug in _listed_works(html)] == sorted(names.values(), key=sort_key)
    assert [names[slug] for slug in _listed_works(html)][:2] == ["AgentGym", "Bandit"]


def test_every_way_of_writing_a_name_writes_its_key() -> None:
    created = Source.objects.bulk_create([Source(slug="a", short_name="强化学习", title="强化学习"),
                                          Source(slug="b", short_name="GRPO", title="GRPO")])
    assert [s.name_sort for s in Source.objects.filter(pk__in=[s.pk for s in created])] == [
        sort_key("GRPO"), sort_key("强化学习")]

    first = created[0]
    first.short_name = "策略梯度"
    Source.objects.bulk_update([first], ["short_name"])
    assert Source.objects.get(pk=first.pk).name_sort == sort_key("策略梯度")

    Source.objects.filter(pk=first.pk).update(title="中文")
    assert Source.objects.get(pk=first.pk).title_sort == sort_key("中文")
    with pytest.raises(TypeError, match="update it to a text"):
        Source.objects.filter(pk=first.pk).update(title=F("short_name"))

    page = make_page(slug="renamed", title="Renamed")
    page.title = "环境"
    page.save(update_fields=["title"])
    assert Page.objects.get(pk=page.pk).title_sort == sort_key("环境")

    read = Page.objects.only("id", "title").get(pk=page.pk)
    read.title = "奖励"
    read.save()
    assert Page.objects.get(pk=page.pk).title_sort == sort_key("奖励")

    question = make_question(title="Old")
    OpenQuestion.objects.filter(pk=question.pk).update(title="新问题")
    component = Component.objects.create(source=first, slug="part", name="监督器")
    assert OpenQuestion.objects.get(pk=question.pk).title_sort == sort_key("新问题")
    assert Component.objects.get(pk=component.pk).name_sort == sort_key("监督器")


def test_a_generated_wiki_has_every_key() -> None:
    wiki_generate(works=30, claims=12, pages=3, seed=1)

    for model in (Page, Source, Component, OpenQuestion):
        for key in sort_key_fields(model):
            rows = model._base_manager.values_list(key.source, key.name)
            assert rows and all(stored == key.derive(name) for name, stored in rows), (model.__name__, key.name)


def test_the_migration_derives_the_keys_of_existing_rows_in_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    _pages()
    _works()
    make_question(title="强化学习是否可复现？")
    glossary_term_create(fields={"slug": "env", "name_zh": "环境", "name_en": "Environment"}, user=None)
    Component.objects.create(source=Source.objects.get(slug="grpo"), slug="part", name="监督器")
    keyed = [(model, key) for model in (Page, Source, Component, OpenQuestion, GlossaryTerm) for key in sort_key_fields(model)
             if key.orders]  # the names' search forms are 0050's
    with connection.cursor() as cursor:
        for model, key in keyed:
            cursor.execute(f'UPDATE {model._meta.db_table} SET "{key.column}" = %s', [""])
    monkeypatch.setattr(migration, "BATCH", 2)  # six pages and six works: several batches each

    with connection.schema_editor() as schema_editor:
        migration.fill(apps, schema_editor)

    for model, key in keyed:
        rows = model._base_manager.values_list(key.source, key.name)
        assert rows and all(stored == sort_key(name) for name, stored in rows), (model.__name__, key.name)
    assert _listed_pages(Client().get(reverse("wiki:page-list")).content.decode()) == IN_PINYIN_ORDER


def test_the_lists_read_as_many_times_for_many_names_as_for_few(client: Client) -> None:
    _pages()
    _works()

    def count() -> list[int]:
        counts = []
        for url in (reverse("wiki:page-list"), reverse("wiki:source-list"), "/api/v1/pages/", "/api/v1/sources/"):
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200
            counts.append(len(queries))
        return counts

    few = count()
    for n in range(30):
        make_page(slug=f"more-{n}", title=f"更多页面 {n}")
        make_source(slug=f"more-{n}", short_name=f"更多 {n}", title=f"更多工作 {n}")
    assert count() == few
