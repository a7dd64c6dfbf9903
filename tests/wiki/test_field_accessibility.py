"""A field's error message and help text carry the ids its aria-describedby points at."""

from __future__ import annotations

import re

import pytest
from django import forms
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse


class _YearForm(forms.Form):
    year = forms.IntegerField(help_text="Four digits, e.g. 2025.")


def test_every_id_an_edit_field_is_described_by_exists() -> None:
    form = _YearForm({"year": "soon"})
    assert not form.is_valid()
    html = render_to_string("wiki/edit/field.html", {"field": form["year"]})
    [described_by] = re.findall(r'aria-describedby="([^"]+)"', html)
    for target in described_by.split():
        assert f'id="{target}"' in html, target


@pytest.mark.django_db
def test_every_search_field_in_error_is_described_by_its_error(client: Client) -> None:
    html = client.get(reverse("wiki:search"), {"q": "x" * 300, "kind": "zz"}).content.decode()

    described = re.findall(r'aria-describedby="([^"]+)"', html)
    assert {"id_q_error", "id_kind_error"} <= set(described)
    for ident in described:
        assert f'id="{ident}"' in html, ident


@pytest.mark.django_db
def test_the_live_preview_announces_that_it_changed_not_the_whole_page(editor_client: Client) -> None:
    html = editor_client.get(reverse("wiki:page-create")).content.decode()

    pane = re.search(r'<section class="preview-pane"[^>]*>', html)
    assert pane is not None and "aria-live" not in pane.group(0)
    assert 'data-preview-updated="Preview updated."' in pane.group(0)
    assert '<p class="visually-hidden" role="status" id="preview-status"></p>' in html


@pytest.mark.django_db
def test_each_citation_row_of_the_claim_form_is_a_group_named_by_its_place(editor_client: Client) -> None:
    from tests.factories import cite, make_page, make_source

    first, second = make_source(title="First Work"), make_source(title="Second Work")
    page = make_page(body=f"## 关键要点\n\n- 两项工作都更新参数。{cite(first, second)}\n")
    claim = page.claims.get()

    html = editor_client.get(reverse("wiki:claim-edit", args=[claim.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()

    legends = re.findall(r'<fieldset class="formset-row">\s*<legend class="visually-hidden">([^<]+)</legend>', html)
    assert legends == ["Citation 1", "Citation 2", "New citation (left empty, none is added)"]
