"""A formula is set in a math font wherever it is read: parentheses stretch to what they enclose, even in a browser
whose system has no math font (this machine's Chromium has none)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from wiki.services.pages import page_save_revision

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BODY = """$$
\\left( \\frac{\\pi_\\theta(a \\mid s)}{\\pi_{\\mathrm{old}}(a \\mid s)} \\right) + \\binom{n}{k}
$$
"""
# The height of each fence (parenthesis) beside the height of the fraction it encloses.
HEIGHTS = """() => {
  const fences = [...document.querySelectorAll('.math-display mo')].filter(o => '()'.includes(o.textContent.trim()));
  const fraction = document.querySelector('.math-display mfrac').getBoundingClientRect().height;
  return {fraction, fences: fences.map(o => o.getBoundingClientRect().height)};
}"""


def test_a_formulas_parentheses_stretch_to_the_fraction_they_enclose(page: Any, live_server: Any) -> None:
    page_save_revision(slug="fences", title="Fences", body=BODY)
    page.goto(f"{live_server.url}{reverse('wiki:page-detail', kwargs={'slug': 'fences'})}")
    page.wait_for_function("document.fonts.status === 'loaded'")
    assert page.evaluate("document.fonts.check('16px \"STIX Two Math\"')")
    heights = page.evaluate(HEIGHTS)
    assert heights["fences"], "the formula has no parentheses"
    left = heights["fences"][0]
    assert left >= 0.9 * heights["fraction"], heights


def test_a_page_without_a_formula_does_not_fetch_the_math_font(page: Any, live_server: Any) -> None:
    page_save_revision(slug="plain", title="Plain", body="No formula here.\n")
    fonts: list[str] = []
    page.on("request", lambda request: fonts.append(request.url) if request.resource_type == "font" else None)
    page.goto(f"{live_server.url}{reverse('wiki:page-detail', kwargs={'slug': 'plain'})}")
    page.wait_for_function("document.fonts.status === 'loaded'")
    assert not [url for url in fonts if "stix" in url]
