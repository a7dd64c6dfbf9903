"""An editor adds a component to a work as they classify it, from the classification form."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_source
from wiki.models import ChangeEvent, Classification, Component

pytestmark = pytest.mark.django_db

FACTS = {"mechanism": "policy_gradient", "algorithm": "GRPO", "updated": "worker policy", "interactive_env": "true",
         "multi_step": "true", "verifiable_reward": "true", "rl_update": "true", "verdict": "strict", "rationale": ""}


def test_a_component_named_in_the_form_is_added_and_classified(editor_client: Client) -> None:
    shepherd = make_source(slug="shepherd", short_name="Shepherd")
    Component.objects.create(source=shepherd, slug="tree-grpo", name="Tree-GRPO")
    url = reverse("wiki:classification-create", kwargs={"slug": "shepherd"})

    response = editor_client.post(url, {**FACTS, "new_component": "Supervisor & CRO"})
    response_zh = editor_client.post(url, {**FACTS, "new_component": "监督器"})

    assert response.status_code == 302 and response_zh.status_code == 302
    supervisor = Component.objects.get(source=shepherd, name="Supervisor & CRO")
    chinese = Component.objects.get(source=shepherd, name="监督器")
    assert (supervisor.slug, chinese.slug) == ("supervisor-cro", "jian-du-qi")
    assert Classification.objects.get(component=supervisor).mechanism == "policy_gradient"
    assert ChangeEvent.objects.filter(kind="classification", label="Shepherd — Supervisor & CRO").exists()
    assert "Supervisor &amp; CRO" in editor_client.get(shepherd.get_absolute_url()).content.decode()
    contrast = editor_client.get(reverse("wiki:contrast", args=["shepherd:supervisor-cro", "shepherd:tree-grpo"]))
    assert contrast.status_code == 200


def test_a_component_the_work_has_or_one_chosen_twice_is_refused_and_nothing_is_saved(editor_client: Client) -> None:
    shepherd = make_source(slug="shepherd", short_name="Shepherd")
    tree = Component.objects.create(source=shepherd, slug="tree-grpo", name="Tree-GRPO")
    url = reverse("wiki:classification-create", kwargs={"slug": "shepherd"})

    existing = html.unescape(editor_client.post(url, {**FACTS, "new_component": "tree grpo"}).content.decode())
    both = html.unescape(editor_client.post(url, {**FACTS, "component": tree.pk, "new_component": "Planner"}).content.decode())
    chinese = html.unescape(editor_client.post(url, {**FACTS, "new_component": "TREE-GRPO"},
                                               HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode())

    assert "Shepherd has a component called “Tree-GRPO” already: choose it instead." in existing
    assert "Choose one of the work's components or name a new one, not both." in both
    assert "Shepherd 已经有一个叫“Tree-GRPO”的组件：请直接选择它。" in chinese
    assert 'value="tree grpo"' in existing
    assert list(Component.objects.filter(source=shepherd)) == [tree]
    assert not Classification.objects.exists()


def test_a_refused_classification_adds_no_component(editor_client: Client) -> None:
    make_source(slug="shepherd", short_name="Shepherd")
    url = reverse("wiki:classification-create", kwargs={"slug": "shepherd"})

    # A verdict the rubric does not give needs a rationale: the classification is refused, and its component with it.
    response = editor_client.post(url, {**FACTS, "verdict": "not_strict", "new_component": "Planner"})

    assert response.status_code == 200
    assert not Component.objects.exists() and not Classification.objects.exists()


def test_an_existing_classification_offers_no_new_component(editor_client: Client) -> None:
    shepherd = make_source(slug="shepherd", short_name="Shepherd")
    editor_client.post(reverse("wiki:classification-create", kwargs={"slug": "shepherd"}), FACTS)
    classification = Classification.objects.get(source=shepherd)

    page = editor_client.get(reverse("wiki:classification-edit", kwargs={"pk": classification.pk})).content.decode()

    assert 'name="new_component"' not in page
