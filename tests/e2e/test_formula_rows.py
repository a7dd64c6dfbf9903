"""A formula of several rows (``aligned``) reads as typeset: one row per line, the rows lined up at their ``=``."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from wiki.services.pages import page_save_revision

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BODY = """$$
\\begin{aligned}
J(\\theta) &= \\mathbb{E}_{\\tau \\sim \\pi_\\theta}[R(\\tau)] \\\\
\\nabla J &= 0
\\end{aligned}
$$
"""
# The left edge and the vertical middle of each relation sign, in the order of the rows.
EQUALS = "() => [...document.querySelectorAll('.math-display mo')].filter(o => o.textContent === '=')" \
         ".map(o => { const r = o.getBoundingClientRect(); return [r.left, r.top + r.height / 2]; })"


def test_the_rows_of_aligned_equations_stand_one_under_the_other_at_their_equals_sign(page: Any, live_server: Any) -> None:
    page_save_revision(slug="rows", title="Rows", body=BODY)
    page.goto(f"{live_server.url}{reverse('wiki:page-detail', kwargs={'slug': 'rows'})}")
    (first_left, first_middle), (second_left, second_middle) = page.evaluate(EQUALS)
    assert second_middle - first_middle > 10
    assert abs(first_left - second_left) < 1
