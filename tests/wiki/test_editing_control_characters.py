"""A NUL or another control character typed where an editor form names a work or a glossary alias is refused with
the field's error and saves nothing, as in every other field: PostgreSQL cannot compare a text holding NUL, so it is
never looked up."""

from __future__ import annotations

from typing import Any

import pytest
from django import forms
from django.test import Client
from django.urls import reverse

from tests.factories import make_claim, make_source
from wiki.models import GlossaryTerm, OpenQuestion

pytestmark = pytest.mark.django_db


def _as_opened(client: Client, url: str, **typed: str) -> dict[str, Any]:
    """The form at ``url`` sent as it opened (hidden values too), with ``typed`` typed into it."""
    form = client.get(url).context["form"]
    data: dict[str, Any] = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if isinstance(field.widget, forms.CheckboxInput):
            if value:
                data[name] = "on"
        elif isinstance(value, (list, tuple)):
            data[name] = [str(getattr(item, "pk", item)) for item in value]
        elif value is not None:
            data[name] = str(getattr(value, "pk", value))
    return data | typed


def test_a_work_typed_with_a_nul_in_a_claims_form_is_unknown_and_nothing_is_saved(editor_client: Client) -> None:
    make_source(short_name="SkillForge", slug="skillforge")
    claim = make_claim("奖励模型需要校准。")
    url = reverse("wiki:claim-edit", kwargs={"pk": claim.pk})

    response = editor_client.post(url, _as_opened(editor_client, url, about="skill\x00forge"))

    assert response.status_code == 200
    assert [error.code for error in response.context["form"].errors.as_data()["about"]] == ["unknown"]
    assert not claim.about.exists()


def test_a_work_typed_with_a_nul_in_a_questions_form_is_unknown_and_nothing_is_added(editor_client: Client) -> None:
    url = reverse("wiki:question-create")

    response = editor_client.post(url, _as_opened(editor_client, url, title="奖励是否可验证？", sources="\x00"))

    assert response.status_code == 200
    assert [error.code for error in response.context["form"].errors.as_data()["sources"]] == ["unknown"]
    assert not OpenQuestion.objects.exists()


def test_a_glossary_alias_holding_a_nul_is_refused_as_a_name_is_and_nothing_is_added(editor_client: Client) -> None:
    url = reverse("wiki:glossary-create")

    response = editor_client.post(url, _as_opened(editor_client, url, slug="tool-routing", name_zh="工具路由",
                                                  name_en="tool routing", aliases_en="router\nrout\x00ing"),
                                  headers={"accept-language": "zh-CN"})

    assert response.status_code == 200
    assert [error.code for error in response.context["form"].errors.as_data()["aliases_en"]] == ["invalid_characters"]
    assert not GlossaryTerm.objects.filter(slug="tool-routing").exists()
