"""A formula wider than a phone's screen scrolls in its own place, and the page around it keeps the screen's width."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from wiki.services.pages import page_save_revision

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "\\lambda_1 R_1 + \\lambda_2 R_2 + \\lambda_3 R_3 + \\lambda_4 R_4 + \\lambda_5 R_5 + \\lambda_6 R_6 + \\lambda_7 R_7"
BODY = f"混合回报 ${LONG} - \\beta D_{{KL}}$ 写在句中。\n\n- 列表里也是 ${LONG} + {LONG}$\n\n$$\n{LONG}\n$$\n\n短公式 $x^2$ 与 $s_t$ 在行内。"
# How far each short formula's baseline sits from its line's text: a formula boxed to scroll would sit on its bottom edge.
BASELINES = """() => [...document.querySelectorAll('.page-body p:last-child math')].map(m => {
  const probe = document.createElement('span'); probe.textContent = '字'; m.before(probe);
  const shift = m.getBoundingClientRect().bottom - probe.getBoundingClientRect().bottom; probe.remove(); return shift; })"""


def test_a_long_inline_formula_scrolls_with_its_paragraph_and_the_page_keeps_a_phones_width(page: Any, live_server: Any) -> None:
    page_save_revision(slug="wide", title="Wide", body=BODY)
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(f"{live_server.url}{reverse('wiki:page-detail', kwargs={'slug': 'wide'})}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for box in (".page-body p:first-of-type", ".page-body li"):
        assert page.evaluate(f"(() => {{ const b = document.querySelector('{box}'); return b.scrollWidth > b.clientWidth; }})()")
    # short formulas stand on the line as text does, not raised or lowered by the scrolling box
    assert all(abs(shift) < 8 for shift in page.evaluate(BASELINES))
