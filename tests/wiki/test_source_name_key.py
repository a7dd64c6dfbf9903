"""A work's short name is stored folded whichever way the work was created, and typed names are found by it."""

from __future__ import annotations

import pytest

from tests.factories import make_source
from wiki.devtools.generate import wiki_generate
from wiki.forms.pickers import works_named
from wiki.models import Source
from wiki.references.identifiers import short_name_key
from wiki.services.source_import import sources_import
from wiki.services.sources import source_named, sources_create_for_titles, sources_named

pytestmark = pytest.mark.django_db


def _stored_keys_are_folded() -> None:
    for short_name, name_key in Source.all_objects.values_list("short_name", "name_key"):
        assert name_key == short_name_key(short_name) != ""


def test_every_way_of_creating_a_work_stores_its_folded_short_name() -> None:
    make_source(slug="tree-grpo", short_name="Tree-GRPO")
    sources_create_for_titles(titles=["ＷｅｂＡｒｅｎａ: A Realistic Web Environment"])
    sources_import(text="@article{sky, title={SkyRL: Agents, Trained}, author={A. Author}, year={2025}}\n")
    wiki_generate(works=5, claims=5, pages=1)
    assert Source.all_objects.count() == 8
    _stored_keys_are_folded()

    tree = Source.objects.get(slug="tree-grpo")
    tree.short_name = "Tree GRPO (v2)"
    tree.save()
    assert Source.objects.get(slug="tree-grpo").name_key == "treegrpov2"


def test_a_typed_name_finds_its_work_among_many_sharing_a_word() -> None:
    works = [make_source(slug=f"agent-{n}", short_name=f"Agent {n}") for n in range(1, 13)]

    assert source_named("AGENT-11") == works[10]
    assert source_named("Agent") is None
    assert sources_named(["agent 1", "Ａｇｅｎｔ　２"]) == {"agent1": [works[0]], "agent2": [works[1]]}
    assert works_named(["agent_12", "agent-3"]) == {"agent_12": [works[11]], "agent-3": [works[2]]}


def test_a_name_typed_with_other_spacing_or_punctuation_is_the_same_name() -> None:
    skillforge = make_source(slug="skillforge", short_name="SkillForge")

    typed = ["skill forge", "Skill-Forge", "skill\u3000forge", "ＳｋｉｌｌＦｏｒｇｅ", "Skill·Forge"]

    assert all(source_named(name) == skillforge for name in typed)
    assert works_named(typed) == {name.lower(): [skillforge] for name in typed}


def test_a_save_of_the_short_name_alone_writes_its_folded_key() -> None:
    work = make_source(slug="tree-grpo", short_name="Tree-GRPO", title="Tree GRPO")
    work.short_name, work.title = "ＴｒｅｅＰＯ", "TreePO: A Study"
    work.save(update_fields=["short_name", "title"])

    assert Source.objects.values_list("name_key", "normalized_title").get(pk=work.pk) == ("treepo", "treepo a study")
