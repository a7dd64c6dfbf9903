"""A field's error message and help text carry the ids its aria-describedby points at."""

from __future__ import annotations

import re

from django import forms
from django.template.loader import render_to_string


class _YearForm(forms.Form):
    year = forms.IntegerField(help_text="Four digits, e.g. 2025.")


def test_every_id_an_edit_field_is_described_by_exists() -> None:
    form = _YearForm({"year": "soon"})
    assert not form.is_valid()
    html = render_to_string("wiki/edit/field.html", {"field": form["year"]})
    [described_by] = re.findall(r'aria-describedby="([^"]+)"', html)
    for target in described_by.split():
        assert f'id="{target}"' in html, target
