"""Lists as tables at a desktop's width: their short columns (a claim's section and status, who dismissed a finding and
when) read on one line beside the long text, not squeezed to a character or a word a line."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

_LINES = """(cell) => { const range = document.createRange(); range.selectNodeContents(cell);
  return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size; }"""


def _desktop(page: Any, language: str) -> Any:
    return page.context.browser.new_context(viewport={"width": 1280, "height": 900}, locale=language).new_page()


@pytest.mark.parametrize("language", ["zh-CN", "en-GB"])
def test_a_pages_claims_read_their_section_and_status_on_one_line(page: Any, live_server: Any, seed: None,
                                                                 language: str) -> None:
    tab = _desktop(page, language)
    tab.goto(live_server.url + reverse("wiki:page-claims", kwargs={"slug": "agentic-rl"}))
    table = tab.locator("table.page-claims")
    for column in (2, 4):
        header = table.locator(f"thead th:nth-child({column})")
        assert header.evaluate(_LINES) == 1, header.inner_text()
        for cell in table.locator(f"tbody tr td:nth-child({column})").all()[:6]:
            assert cell.evaluate(_LINES) == 1, cell.inner_text()
    # ruled and spaced as the wiki's other lists
    assert table.locator("tbody td").first.evaluate("(td) => getComputedStyle(td).borderBottomStyle") == "solid"


@pytest.mark.parametrize("language", ["zh-CN", "en-GB"])
def test_who_dismissed_a_finding_and_when_read_on_one_line(page: Any, live_server: Any, seed: None, language: str) -> None:
    tab = _desktop(page, language)
    tab.goto(live_server.url + reverse("wiki:consistency-report"))
    rows = tab.locator("table.dismissed tbody tr").all()
    assert rows
    for row in rows:
        for column in (4, 5):  # "loaded with the wiki", "2026-12-06 19:50 UTC+8"
            cell = row.locator(f"td:nth-child({column})")
            assert cell.evaluate(_LINES) == 1, cell.inner_text()
