"""A search that names a work or page exactly (case and spacing aside) leads straight to it, above the results, in
the browser and the API; filtered searches and later pages of results do not repeat it."""

from __future__ import annotations

import importlib

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import ComponentFactory, make_page, make_source
from wiki.models import Component, Page, Source
from wiki.roles import Account
from wiki.search.close import exact_names
from wiki.search.query import search
from wiki.services.deletion import source_delete
from wiki.services.pages import page_save
from wiki.services.sources import source_save

pytestmark = pytest.mark.django_db


def _exact(query: str, **filters: object) -> list[tuple[str, str]]:
    return [(e.kind, e.slug) for e in search(query, **filters).exact]  # type: ignore[arg-type]


def test_a_work_or_page_named_as_the_search_is_one_step_away(client: Client, editor: Account) -> None:
    make_source(slug="skillforge", short_name="SkillForge", title="SkillForge: Learning Skills with GRPO")
    make_source(slug="skillforge-two", short_name="SkillForge 2", title="SkillForge 2")
    make_source(slug="tong-yi-shen-du-yan-jiu", short_name="通义深度研究", title="通义深度研究：面向长程任务的智能体")
    make_page(slug="skillforge-notes", title="skillforge")
    make_page(slug="credit-assignment", title="Credit Assignment")
    gone = make_source(slug="deleted-forge", short_name="Deleted Forge")
    source_delete(source=gone, reason="duplicate", user=editor)

    assert _exact("SKILLFORGE") == [("source", "skillforge"), ("page", "skillforge-notes")]
    assert _exact("  credit   assignment ") == [("page", "credit-assignment")]
    assert _exact("通义深度研究") == [("source", "tong-yi-shen-du-yan-jiu")]
    assert _exact("skillforg") == [] and _exact("Deleted Forge") == []
    assert _exact("SkillForge", kinds=["source"]) == [] and _exact("SkillForge", offset=10) == []

    html = client.get(reverse("wiki:search"), {"q": "skillforge"}).content.decode()
    assert ('<p class="search-exact">Go to: <a href="/sources/skillforge/" lang="en">SkillForge</a>'
            '<span class="muted"> (Source)</span>; <a href="/wiki/skillforge-notes/" lang="en">skillforge</a>') in html
    # Chinese text takes full-width brackets.
    zh = client.get(reverse("wiki:search"), {"q": "skillforge"}, headers={"accept-language": "zh-CN"}).content.decode()
    assert '<span class="muted">（来源）</span>' in zh and '<span class="muted">（页面）</span>' in zh
    assert "search-exact" not in client.get(reverse("wiki:search"), {"q": "skillforge", "kind": "source"}).content.decode()
    api = client.get("/api/v1/search/", {"q": "Credit Assignment"}).json()
    assert api["exact"] == [{"kind": "page", "name": "Credit Assignment", "slug": "credit-assignment",
                             "url": "/wiki/credit-assignment/"}]
    assert client.get("/api/v1/search/", {"q": "Credit Assignment", "page": "2"}).json()["exact"] == []


def test_pages_titled_alike_are_offered_each_with_its_address(client: Client) -> None:
    make_page(slug="agentic-rl", title="Agentic RL")
    make_page(slug="agentic-rl-draft", title="Agentic RL")
    make_source(slug="solo", short_name="Solo")

    html = client.get(reverse("wiki:search"), {"q": "agentic rl"}).content.decode()
    alone = client.get(reverse("wiki:search"), {"q": "solo"}).content.decode()

    assert '<span class="muted"> (Page · <span lang="en">agentic-rl</span>)</span>' in html
    assert '<span class="muted"> (Page · <span lang="en">agentic-rl-draft</span>)</span>' in html
    assert '<span class="muted"> (Source)</span>' in alone


def test_a_renamed_work_or_page_is_found_by_its_new_name_however_it_was_written(editor: Account) -> None:
    work = make_source(slug="old-forge", short_name="Old Forge", bibtex_key="Forge2025")
    other = make_source(slug="other", short_name="Other")
    page = make_page(slug="notes", title="Old Notes")

    source_save(source=work, fields={"short_name": "New Forge"}, user=editor)
    page_save(slug="notes", title="Fresh Notes", body=page.body, user=editor)
    Source.objects.filter(pk=other.pk).update(short_name="Renamed Other")

    assert _exact("old forge") == [] and _exact("new  forge") == [("source", "old-forge")]
    assert _exact("old notes") == [] and _exact("FRESH notes") == [("page", "notes")]
    assert _exact("other") == [] and _exact("renamed other") == [("source", "other")]
    other.short_name = "Bulk Other"
    Source.objects.bulk_update([other], ["short_name"])
    assert _exact("renamed other") == [] and _exact("bulk other") == [("source", "other")]
    # a work is also named by its BibTeX key, case aside
    assert _exact("forge2025") == [("source", "old-forge")]


def test_the_names_a_search_leads_to_are_one_query_whatever_the_wiki_holds() -> None:
    for n in range(30):
        make_source(slug=f"work-{n}", short_name=f"Work {n}")
        make_page(slug=f"page-{n}", title=f"Work {n}")

    with CaptureQueriesContext(connection) as queries:
        found = exact_names("work 7")

    assert [(e.kind, e.slug) for e in found] == [("source", "work-7"), ("page", "page-7")]
    assert len(queries) == 1


def test_the_migration_derives_the_forms_of_existing_names_in_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    from django.apps import apps

    migration = importlib.import_module("wiki.migrations.0052_search_forms_and_live_works_index")
    for n in range(3):
        make_source(slug=f"forge-{n}", short_name=f"Forge-{n}")
        make_page(slug=f"note-{n}", title=f"Notes　Ｎo. {n}")
    Source.objects.update(name_form="")
    Page.objects.update(title_form="")
    assert _exact("forge 1") == []
    monkeypatch.setattr(migration, "BATCH", 2)

    with connection.schema_editor() as schema_editor:
        migration.fill(apps, schema_editor)

    assert _exact("forge 1") == [("source", "forge-1")] and _exact("notes no 2") == [("page", "note-2")]


def test_a_component_named_as_the_search_leads_to_its_classification_on_its_work(client: Client, editor: Account) -> None:
    shepherd = make_source(slug="shepherd", short_name="Shepherd", title="Shepherd: Programmable Meta-Agents")
    ComponentFactory.create(source=shepherd, slug="tree-grpo", name="Tree-GRPO")
    ComponentFactory.create(source=shepherd, slug="supervisor-cro", name="supervisor and CRO")
    gone = make_source(slug="gone", short_name="Gone")
    ComponentFactory.create(source=gone, slug="tree-grpo", name="Tree-GRPO")
    source_delete(source=gone, reason="duplicate", user=editor)

    # by its own name or its work's and its, however spaced and cased; the work itself still by the work's name
    assert [(e.name, e.url) for e in exact_names("Tree-GRPO")] == [("Shepherd Tree-GRPO", "/sources/shepherd/#component-tree-grpo")]
    assert [e.url for e in exact_names("shepherd  tree grpo")] == ["/sources/shepherd/#component-tree-grpo"]
    assert [e.url for e in exact_names("Shepherd supervisor and CRO")] == ["/sources/shepherd/#component-supervisor-cro"]
    assert [e.url for e in exact_names("Shepherd")] == ["/sources/shepherd/"]
    assert exact_names("supervisor") == [] and exact_names("Gone Tree-GRPO") == []

    html = client.get(reverse("wiki:search"), {"q": "Tree-GRPO"}).content.decode()
    assert ('<p class="search-exact">Go to: <a href="/sources/shepherd/#component-tree-grpo" lang="en">Shepherd Tree-GRPO</a>'
            '<span class="muted"> (Component)</span>') in html
    api = client.get("/api/v1/search/", {"q": "tree-grpo"}).json()
    assert api["exact"] == [{"kind": "source", "name": "Shepherd Tree-GRPO", "slug": "shepherd",
                             "url": "/sources/shepherd/#component-tree-grpo"}]


def test_a_renamed_component_is_found_by_its_new_name() -> None:
    work = make_source(slug="split", short_name="Split")
    part = ComponentFactory.create(source=work, slug="loop", name="Loop-GRPO")
    part.name = "Branch GRPO"
    part.save()
    assert exact_names("loop grpo") == [] and [e.url for e in exact_names("Branch-GRPO")] == ["/sources/split/#component-loop"]


def test_the_names_a_search_leads_to_are_one_query_with_components_too() -> None:
    for n in range(30):
        work = make_source(slug=f"work-{n}", short_name=f"Work {n}")
        ComponentFactory.create(source=work, slug="part", name=f"Part {n}")

    with CaptureQueriesContext(connection) as queries:
        found = exact_names("work 7 part 7")

    assert [e.url for e in found] == ["/sources/work-7/#component-part"]
    assert len(queries) == 1


def test_the_migration_derives_the_forms_of_existing_component_names(monkeypatch: pytest.MonkeyPatch) -> None:
    from django.apps import apps

    migration = importlib.import_module("wiki.migrations.0055_component_name_form")
    work = make_source(slug="shepherd", short_name="Shepherd")
    for n in range(3):
        ComponentFactory.create(source=work, slug=f"part-{n}", name=f"Part-{n}")
    Component.objects.update(name_form="")
    assert exact_names("part 1") == []
    monkeypatch.setattr(migration, "BATCH", 2)

    with connection.schema_editor() as schema_editor:
        migration.fill(apps, schema_editor)

    assert [e.url for e in exact_names("part 1")] == ["/sources/shepherd/#component-part-1"]
