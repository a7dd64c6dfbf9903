"""Works typed as a list in either language: commas of either width and 、 separate them, ： is a component's colon."""

from __future__ import annotations

import pytest

from tests.factories import make_source
from wiki.forms.pickers import WorkMultipleChoiceField
from wiki.graph.build import SubjectRef
from wiki.graph.forms import WorkPickForm, split_subjects
from wiki.models import Component
from wiki.text.lists import split_list

pytestmark = pytest.mark.django_db


def test_a_list_of_works_is_read_whichever_comma_parts_it() -> None:
    tongyi = make_source(slug="tong-yi-shen-du-yan-jiu", short_name="通义深度研究")
    skillforge = make_source(slug="skillforge", short_name="SkillForge")
    webarena = make_source(slug="webarena", short_name="WebArena")
    field = WorkMultipleChoiceField()

    assert field.clean("通义深度研究，SkillForge") == [tongyi, skillforge]
    assert field.clean("SkillForge、WebArena") == [skillforge, webarena]
    assert field.clean("skill forge , webarena,") == [skillforge, webarena]


def test_the_compare_form_reads_enumeration_commas_and_a_full_width_colon() -> None:
    make_source(slug="skillforge", short_name="SkillForge")
    shepherd = make_source(slug="shepherd", short_name="Shepherd")
    Component.objects.create(source=shepherd, slug="tree-grpo", name="Tree-GRPO")

    form = WorkPickForm({"works": split_subjects(["SkillForge、shepherd：tree-grpo"])})

    assert form.is_valid(), form.errors
    assert form.cleaned_data["works"] == [SubjectRef("skillforge"), SubjectRef("shepherd", "tree-grpo")]


def test_split_list_keeps_no_empty_item() -> None:
    assert split_list(" a，b 、c,, ") == ["a", "b", "c"]
