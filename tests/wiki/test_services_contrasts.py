"""Contrasts through the service: one per pair of works, whichever way round."""

from __future__ import annotations

import html

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import ContrastWiki, make_source
from wiki.models import Contrast
from wiki.roles import Account
from wiki.services.contrasts import contrast_create


def test_the_same_pair_the_other_way_round_is_refused_and_nothing_added(db: None) -> None:
    left, right = make_source(), make_source()
    contrast_create(left=left, right=right, axis="SFT vs GRPO")
    with pytest.raises(ValidationError) as refused:
        contrast_create(left=right, right=left, axis="GRPO vs SFT")
    assert refused.value.code == "exists"
    assert Contrast.objects.filter(left__in=[left, right]).count() == 1


def test_a_component_cannot_be_contrasted_with_its_own_work_either_way_round(contrast_wiki: ContrastWiki) -> None:
    split, part = contrast_wiki.split, contrast_wiki.split_rl
    before = Contrast.objects.count()
    for sides in ({"left": split, "left_component": part, "right": split},
                  {"left": split, "right": split, "right_component": part}):
        with pytest.raises(ValidationError) as refused:
            contrast_create(**sides, axis="part vs whole")  # type: ignore[arg-type]
        assert refused.value.code == "component_of_itself"
    assert Contrast.objects.count() == before


def test_two_components_of_one_work_can_still_be_contrasted(contrast_wiki: ContrastWiki) -> None:
    split = contrast_wiki.split
    Contrast.objects.filter(left=split, right=split).delete()

    contrast = contrast_create(left=split, left_component=contrast_wiki.split_rl, right=split,
                               right_component=contrast_wiki.split_runtime, axis="update vs none")

    assert contrast.pk is not None


def test_the_contrast_form_refuses_a_component_against_its_own_work_in_the_readers_language(
    contrast_wiki: ContrastWiki, editor_client: Client,
) -> None:
    split, part = contrast_wiki.split, contrast_wiki.split_rl
    data = {"left": split.slug, "left_component": part.pk, "right": split.slug, "axis": "Tree-GRPO vs the paper"}

    english = editor_client.post(reverse("wiki:contrast-create"), data)
    chinese = editor_client.post(reverse("wiki:contrast-create"), data, HTTP_ACCEPT_LANGUAGE="zh-Hans")

    assert english.status_code == 200
    assert (f"“{part.name}” is a component of {split.short_name}: a component cannot be contrasted with its own work"
            in html.unescape(english.content.decode()))
    assert f"“{part.name}”是 {split.short_name} 的组件：组件不能与它所属的工作对比" in html.unescape(chinese.content.decode())
    assert not Contrast.objects.filter(left=split, left_component=part, right=split, right_component=None).exists()


def test_the_api_refuses_a_component_against_its_own_work(contrast_wiki: ContrastWiki, editor: Account) -> None:
    api = APIClient()
    api.force_authenticate(editor)
    split, part = contrast_wiki.split, contrast_wiki.split_rl

    response = api.post("/api/v1/contrasts/", {"left": split.slug, "right": split.slug, "right_component": part.pk,
                                                "axis": "paper vs its Tree-GRPO"}, format="json")

    assert response.status_code == 400
    assert "a component cannot be contrasted with its own work" in response.json()["detail"]
